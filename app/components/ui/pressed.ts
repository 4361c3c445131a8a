/**
 * Whether the form being sent is this button's: its `name=value` pair, and every field of
 * `match` (what tells apart several forms with the same button, such as each eSIM's
 * "Simular instalación", by its position). Without a name, any form being sent is its own.
 */
export function isPressedButton(
  formData: FormData | undefined,
  button: { name?: string; value?: string; match?: Readonly<Record<string, string>> },
): boolean {
  if (!button.name && !button.match) return true;
  if (!formData) return false;
  if (button.name && formData.get(button.name) !== (button.value ?? "")) return false;
  return Object.entries(button.match ?? {}).every(
    ([field, value]) => formData.get(field) === value,
  );
}
