/**
 * Reads until the text matches or the time is up, and returns the last reading: input reaches an
 * app after the compositor took it and the app redrew.
 */
export async function pollText(read: () => Promise<string>, expected: RegExp, timeoutMs = 5_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = await read();
  while (!expected.test(text) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 150));
    text = await read();
  }
  return text;
}
