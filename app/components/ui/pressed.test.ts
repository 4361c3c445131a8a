import { describe, expect, it } from "vitest";
import { isPressedButton } from "./pressed";

function sent(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe("which submit button shows the pending state", () => {
  it("is the one whose name and value were sent", () => {
    const data = sent({ intent: "pay" });
    expect(isPressedButton(data, { name: "intent", value: "pay" })).toBe(true);
    expect(isPressedButton(data, { name: "intent", value: "cancel" })).toBe(false);
  });

  it("is only the pressed one of several forms with the same button (each eSIM's, issue 48)", () => {
    const second = sent({ position: "1", intent: "simulate-esim-install" });
    const button = (position: number) => ({
      name: "intent",
      value: "simulate-esim-install",
      match: { position: String(position) },
    });
    expect(isPressedButton(second, button(1))).toBe(true);
    expect(isPressedButton(second, button(0))).toBe(false);
    expect(isPressedButton(second, button(2))).toBe(false);
  });

  it("is any form being sent for a button without a name, and none while nothing is sent", () => {
    expect(isPressedButton(sent({ email: "a@b.mx" }), {})).toBe(true);
    expect(isPressedButton(undefined, { name: "intent", value: "pay" })).toBe(false);
  });
});
