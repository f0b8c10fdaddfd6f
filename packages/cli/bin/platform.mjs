#!/usr/bin/env node
// The `platform` executable: runs the TypeScript sources through tsx (no build step).
import { register } from "tsx/esm/api";

register();
await import("../src/bin.ts");
