/**
 * When GAI last sent input (noted by WatchedInput as each input ends): a reading of the screen
 * soon after must show what that input did, not the picture from just before the app redrew (a
 * fast or scripted model reads within milliseconds of a click).
 */
export class InputClock {
  private count = 0;
  private at = 0;

  /** Changes with every input sent. */
  get generation(): number {
    return this.count;
  }

  /** performance.now() when the last input was sent; 0 before any. */
  get lastAt(): number {
    return this.at;
  }

  note(): void {
    this.count++;
    this.at = performance.now();
  }
}
