import { defineProperty, prop } from "@platform/core";

/**
 * The connection string a composition root (the CLI's demo) hands to `mongoPlugin({ uri })`; empty:
 * no MongoDB (the in-memory default). Declared by mongoPlugin so a value in code, a config file or
 * `PLATFORM_MONGO_URI` is checked like every other property. Secret when it holds credentials.
 */
export const MONGO_URI = defineProperty<string>({
  key: "platform.mongo.uri",
  schema: prop.text().refine((value) => value === "" || /^mongodb(\+srv)?:\/\//.test(value), {
    message: "must start with mongodb:// or mongodb+srv://",
  }),
  default: "",
  description:
    "MongoDB connection string (mongodb:// or mongodb+srv://) the demo runs on; empty: the in-memory stores. Secret when it holds credentials.",
});

/** Every property mongoPlugin declares. */
export const MONGO_PROPERTIES = [MONGO_URI] as const;
