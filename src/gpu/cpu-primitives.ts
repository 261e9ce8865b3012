// Plain-TypeScript versions of the GPU primitives on typed arrays: the references the GPU tests
// check against, and the CPU baseline `npm run bench` measures the GPU against.

export function exclusiveScanCpu(input: Uint32Array, output = new Uint32Array(input.length)): Uint32Array {
  let sum = 0;
  for (let i = 0; i < input.length; i++) {
    const value = input[i]!;
    output[i] = sum;
    sum = (sum + value) >>> 0;
  }
  return output;
}

export function inclusiveScanCpu(input: Uint32Array, output = new Uint32Array(input.length)): Uint32Array {
  let sum = 0;
  for (let i = 0; i < input.length; i++) {
    sum = (sum + input[i]!) >>> 0;
    output[i] = sum;
  }
  return output;
}

/** The values (or indices, without values) whose flag is non-zero; returns how many were kept. */
export function compactCpu(flags: Uint32Array, values: Uint32Array | undefined, output: Uint32Array): number {
  let kept = 0;
  for (let i = 0; i < flags.length; i++) {
    if (flags[i] !== 0) output[kept++] = values ? values[i]! : i;
  }
  return kept;
}

/**
 * Stable LSD radix sort of 64-bit keys (interleaved low, high words) with u32 values, 8 bits a pass
 * over the low `keyBits` bits, in place. Passes whose digit is the same for every key are skipped.
 */
export function radixSortCpu(keys: Uint32Array, values: Uint32Array, keyBits = 64): void {
  const count = values.length;
  let keysIn: Uint32Array = keys;
  let valuesIn: Uint32Array = values;
  let keysOut: Uint32Array = new Uint32Array(keys.length);
  let valuesOut: Uint32Array = new Uint32Array(count);
  const histogram = new Uint32Array(256);
  for (let shift = 0; shift < keyBits; shift += 8) {
    const word = shift >= 32 ? 1 : 0;
    const wordShift = shift & 31;
    const mask = (1 << Math.min(8, keyBits - shift)) - 1;
    histogram.fill(0);
    for (let i = 0; i < count; i++) histogram[(keysIn[2 * i + word]! >>> wordShift) & mask]!++;
    if (histogram.includes(count)) continue;
    let sum = 0;
    for (let digit = 0; digit < 256; digit++) {
      const n = histogram[digit]!;
      histogram[digit] = sum;
      sum += n;
    }
    for (let i = 0; i < count; i++) {
      const low = keysIn[2 * i]!;
      const high = keysIn[2 * i + 1]!;
      const destination = histogram[((word ? high : low) >>> wordShift) & mask]!++;
      keysOut[2 * destination] = low;
      keysOut[2 * destination + 1] = high;
      valuesOut[destination] = valuesIn[i]!;
    }
    [keysIn, keysOut] = [keysOut, keysIn];
    [valuesIn, valuesOut] = [valuesOut, valuesIn];
  }
  if (keysIn !== keys) {
    keys.set(keysIn);
    values.set(valuesIn);
  }
}
