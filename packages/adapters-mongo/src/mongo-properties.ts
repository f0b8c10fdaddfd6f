import { defineProperty, prop } from "@keyward/core";

/**
 * The connection string a composition root (the CLI's demo) hands to `mongoPlugin({ uri })`; empty:
 * no MongoDB (the in-memory default). Declared by mongoPlugin, so a config file or code may set it
 * (`PLATFORM_MONGO_URI` from the environment). Secret when it holds credentials.
 */
export const MONGO_URI = defineProperty<string>({
  key: "platform.mongo.uri",
  // Any text: PROPERTY_INVALID would print the value, credentials included; the driver's own parse
  // error (which does not repeat the string) reports a malformed one when mongoPlugin registers.
  schema: prop.text(),
  default: "",
  description:
    "MongoDB connection string (mongodb:// or mongodb+srv://) the demo runs on; empty: the in-memory stores. Secret when it holds credentials.",
});

/** Every property mongoPlugin declares. */
export const MONGO_PROPERTIES = [MONGO_URI] as const;
