import { describe, expect, it } from "vitest";
import * as core from "./index.js";

describe("@platform/core public API", () => {
  it("exports exactly the declared names", () => {
    expect(Object.keys(core).sort()).toMatchSnapshot();
  });
});
