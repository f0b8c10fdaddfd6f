import { describe, expect, it } from "vitest";
import { hiddenInputsHtml } from "./hidden-inputs-html.js";
import { HOSTILE, tags } from "./page-contract.test-support.js";

describe("hiddenInputsHtml", () => {
  it("emits the _csrf and mfaSessionId hidden inputs", () => {
    expect(tags(hiddenInputsHtml({ csrfToken: "t1", mfaSessionId: "s1" }), "input")).toEqual([
      { type: "hidden", name: "_csrf", value: "t1" },
      { type: "hidden", name: "mfaSessionId", value: "s1" },
    ]);
  });

  it("leaves out what has no value", () => {
    expect(hiddenInputsHtml({ csrfToken: undefined })).toBe("");
    expect(tags(hiddenInputsHtml({ csrfToken: "t" }), "input").map((i) => i.name)).toEqual(["_csrf"]);
  });

  it("escapes both values", () => {
    const html = hiddenInputsHtml({ csrfToken: HOSTILE, mfaSessionId: HOSTILE });
    expect(html).not.toContain("<script");
    expect(tags(html, "input").map((i) => i.value)).toEqual([HOSTILE, HOSTILE]);
  });
});
