/** A sorted set of code points, read from the generated tables' `hex` / `hex-hex` range lists. */
export class CodePointRanges {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  /** `text`: inclusive hex ranges separated by spaces, in ascending order (as the generator writes them). */
  constructor(text: string) {
    for (const part of text.split(" ")) {
      if (part === "") continue;
      const [from, to = from] = part.split("-") as [string, string?];
      this.starts.push(Number.parseInt(from, 16));
      this.ends.push(Number.parseInt(to, 16));
    }
  }

  /** Whether `codePoint` lies in one of the ranges (binary search). */
  has(codePoint: number): boolean {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (codePoint < (this.starts[mid] as number)) hi = mid - 1;
      else if (codePoint > (this.ends[mid] as number)) lo = mid + 1;
      else return true;
    }
    return false;
  }
}
