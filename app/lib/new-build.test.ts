import { describe, expect, it } from "vitest";
import { isSiteLinkClick, namesAnotherBuild } from "./new-build";

const ORIGIN = "https://www.conecta.example";
const plainClick = {
  button: 0,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  defaultPrevented: false,
};
const link = (href: string, more: Partial<{ target: string; download: boolean }> = {}) => ({
  href,
  target: "",
  download: false,
  ...more,
});

describe("the server's answer about its build", () => {
  it("tells of another build only when it names one that is not the page's", () => {
    expect(namesAnotherBuild({ version: "b2" }, "b1")).toBe(true);
    expect(namesAnotherBuild({ version: "b1" }, "b1")).toBe(false);
    for (const answer of [null, "b2", {}, { version: "" }, { version: 2 }, []]) {
      expect(namesAnotherBuild(answer, "b1"), JSON.stringify(answer)).toBe(false);
    }
  });
});

describe("which clicks the browser takes over once a new build is out", () => {
  it("a plain click on a link to a page of this site", () => {
    expect(isSiteLinkClick(plainClick, link(`${ORIGIN}/help-center`), ORIGIN)).toBe(true);
    expect(isSiteLinkClick(plainClick, link("/plans", { target: "_self" }), ORIGIN)).toBe(true);
  });

  it("never a click that is not a navigation here: no link, another site, a new tab, a download, a modified or handled click", () => {
    expect(isSiteLinkClick(plainClick, null, ORIGIN)).toBe(false);
    expect(isSiteLinkClick(plainClick, link("https://wa.me/5215512345678"), ORIGIN)).toBe(false);
    expect(isSiteLinkClick(plainClick, link("/x", { target: "_blank" }), ORIGIN)).toBe(false);
    expect(isSiteLinkClick(plainClick, link("/docs/x.pdf", { download: true }), ORIGIN)).toBe(
      false,
    );
    for (const modifier of ["metaKey", "ctrlKey", "shiftKey", "altKey"] as const) {
      expect(isSiteLinkClick({ ...plainClick, [modifier]: true }, link("/plans"), ORIGIN)).toBe(
        false,
      );
    }
    expect(isSiteLinkClick({ ...plainClick, button: 1 }, link("/plans"), ORIGIN)).toBe(false);
    expect(isSiteLinkClick({ ...plainClick, defaultPrevented: true }, link("/plans"), ORIGIN)).toBe(
      false,
    );
  });
});
