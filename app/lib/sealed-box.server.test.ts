import { describe, expect, it } from "vitest";
import { createSealedBox } from "./sealed-box.server";

const OLD = "an-old-secret-that-is-long-enough-0123456789";
const NEW = "a-new-secret-that-is-long-enough-0123456789";
const box = (secrets: string[], purpose = "portability_requests.nip") =>
  createSealedBox({ secrets, salt: "storefront-field", purpose });

describe("sealed box", () => {
  it("hides the plain text and opens it again", () => {
    const sealed = box([NEW]).seal("4821", "row-1");
    expect(sealed).not.toContain("4821");
    expect(box([NEW]).open(sealed, "row-1")).toBe("4821");
  });

  it("seals the same text differently every time", () => {
    expect(box([NEW]).seal("4821")).not.toBe(box([NEW]).seal("4821"));
  });

  it("opens what an older secret sealed while that secret is still listed (rotation)", () => {
    const sealed = box([OLD]).seal("4821");
    expect(box([NEW, OLD]).open(sealed)).toBe("4821");
    expect(box([NEW]).open(sealed)).toBeNull();
  });

  it("refuses a value moved to another owner, another purpose, or tampered with", () => {
    const sealed = box([NEW]).seal("4821", "row-1");
    expect(box([NEW]).open(sealed, "row-2")).toBeNull();
    expect(box([NEW], "cookie").open(sealed, "row-1")).toBeNull();
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === "A" ? "B" : "A") + sealed.at(-1);
    expect(box([NEW]).open(flipped, "row-1")).toBeNull();
    expect(box([NEW]).open("garbage", "row-1")).toBeNull();
  });
});
