// A small binary RIB encoder for tests (RI 3.2 Appendix C), so fixtures are built byte by byte
// in the open rather than checked in as opaque files.

export class BinaryRibWriter {
  private readonly bytes: number[] = [];

  raw(...values: number[]): this {
    this.bytes.push(...values);
    return this;
  }

  /** Defines request code `code` as `name` (0314) and then uses it (0246). */
  defineRequest(code: number, name: string): this {
    return this.raw(0xcc, code).string(name);
  }

  request(code: number): this {
    return this.raw(0xa6, code);
  }

  /** Short strings (< 16 bytes) use 0220+len; longer ones 0240 with a one-byte length. */
  string(text: string): this {
    const data = new TextEncoder().encode(text);
    if (data.length < 16) this.raw(0x90 + data.length);
    else this.raw(0xa0, data.length);
    return this.raw(...data);
  }

  defineString(token: number, text: string): this {
    return this.raw(0xcd, token).string(text);
  }

  stringRef(token: number): this {
    return this.raw(0xcf, token);
  }

  /**
   * Integer in `size` bytes (0200 + size - 1): the bytes form a 32-bit RtInt, so negative values
   * need all 4 bytes (two's complement) and shorter forms hold 0 … 256^size - 1.
   */
  int(value: number, size = 4): this {
    if (size < 4 && (value < 0 || value >= 2 ** (8 * size))) throw new Error(`${value} does not fit ${size} unsigned bytes`);
    this.raw(0x80 + size - 1);
    const v = value < 0 ? value + 2 ** (8 * size) : value;
    for (let i = size - 1; i >= 0; i--) this.raw(Math.floor(v / 2 ** (8 * i)) % 256);
    return this;
  }

  /** Fixed point: `size` bytes, `fraction` of them after the binary point. */
  fixed(value: number, size: number, fraction: number): this {
    this.raw(0x80 + fraction * 4 + size - 1);
    let v = Math.round(value * 2 ** (8 * fraction));
    if (v < 0) v += 2 ** (8 * size);
    for (let i = size - 1; i >= 0; i--) this.raw(Math.floor(v / 2 ** (8 * i)) % 256);
    return this;
  }

  float32(value: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value);
    return this.raw(0xa4, ...b);
  }

  float64(value: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, value);
    return this.raw(0xa5, ...b);
  }

  /** Float array with a one-byte count (0310). */
  floatArray(values: number[]): this {
    this.raw(0xc8, values.length);
    const b = new Uint8Array(4 * values.length);
    values.forEach((v, i) => new DataView(b.buffer).setFloat32(4 * i, v));
    return this.raw(...b);
  }

  ascii(text: string): this {
    return this.raw(...new TextEncoder().encode(text));
  }

  toBytes(): Uint8Array {
    return new Uint8Array(this.bytes);
  }
}
