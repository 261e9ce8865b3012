// Strings become integer tokens on the GPU: each distinct string the pipeline mentions gets one.
export class StringTable {
  private readonly tokens = new Map<string, number>([['', 0]]);

  token(text: string): number {
    let token = this.tokens.get(text);
    if (token === undefined) {
      token = this.tokens.size;
      this.tokens.set(text, token);
    }
    return token;
  }

  /** Token → string, for the host (e.g. to show a string parameter). */
  entries(): string[] {
    return [...this.tokens.keys()];
  }
}
