// TEST DOUBLE, NOT A DATABASE: the in-process MongoDB wire-protocol test double (see README.md).
export { COMMANDS } from "./command-table.js";
export { AGGREGATION_STAGES } from "./commands/read-commands.js";
export { startWireDouble, type WireDouble, type WireDoubleOptions } from "./wire-double-server.js";
