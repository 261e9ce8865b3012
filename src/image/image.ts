// Images the renderer produces: linear floating-point RGBA (and depth) before quantization, 8-bit
// (or wider) RGBA after it. Rows run top to bottom, pixels left to right.

export interface FloatImage {
  width: number;
  height: number;
  /** 4 floats per pixel: premultiplied r, g, b and alpha. */
  rgba: Float32Array;
  /** 1 float per pixel: camera-space depth of the nearest sample (Infinity where nothing). */
  depth: Float32Array;
}

export interface QuantizedImage {
  width: number;
  height: number;
  /** 4 values per pixel, already quantized (0..255 for the default Quantize). */
  rgba: Uint8Array | Uint16Array;
  bitDepth: 8 | 16;
}

export function createFloatImage(width: number, height: number): FloatImage {
  const depth = new Float32Array(width * height);
  depth.fill(Infinity);
  return { width, height, rgba: new Float32Array(width * height * 4), depth };
}

/** Copies a `width` × `height` block of RGBA floats into `image` at (x, y). */
export function blitRgba(image: FloatImage, x: number, y: number, width: number, height: number, rgba: Float32Array): void {
  for (let row = 0; row < height; row++) {
    const from = row * width * 4;
    image.rgba.set(rgba.subarray(from, from + width * 4), ((y + row) * image.width + x) * 4);
  }
}

/** Copies a block of depths into `image` at (x, y). */
export function blitDepth(image: FloatImage, x: number, y: number, width: number, height: number, depth: Float32Array): void {
  for (let row = 0; row < height; row++) {
    image.depth.set(depth.subarray(row * width, (row + 1) * width), (y + row) * image.width + x);
  }
}

/** An output variable's filtered image: its value in r (1 component) or r, g, b (3), coverage in alpha. */
export interface VariableImage {
  components: 1 | 3;
  image: FloatImage;
  /** A shader output variable that no shader of the frame has: 0 everywhere. */
  noShaderWrites?: boolean;
}
