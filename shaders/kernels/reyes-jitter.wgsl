// The jittered sample location of a subpixel: a hash of its (global) subpixel coordinates only, so
// the picture does not depend on how the frame was cut into regions. Shared by sampling and the
// pixel filter (prepended in TypeScript).

fn hashU32(x: u32) -> u32 {
  var h = x * 747796405u + 2891336453u;
  h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
  return (h >> 22u) ^ h;
}

/** Offset in [0, 1)² of the sample within subpixel (sx, sy). */
fn jitter(sx: i32, sy: i32) -> vec2f {
  let h = hashU32(bitcast<u32>(sx) ^ hashU32(bitcast<u32>(sy) + 0x9e3779b9u));
  let h2 = hashU32(h);
  return vec2f(f32(h >> 8u), f32(h2 >> 8u)) / 16777216.0;
}

/** Kensler's hashed permutation ("Correlated Multi-Jittered Sampling", 2013): element i of a
 * permutation of 0..n-1 chosen by `seed`. */
fn permute(index: u32, n: u32, seed: u32) -> u32 {
  var w = n - 1u;
  w |= w >> 1u; w |= w >> 2u; w |= w >> 4u; w |= w >> 8u; w |= w >> 16u;
  var i = index;
  loop {
    i ^= seed; i *= 0xe170893du; i ^= seed >> 16u; i ^= (i & w) >> 4u; i ^= seed >> 8u; i *= 0x0929eb3fu;
    i ^= seed >> 23u; i ^= (i & w) >> 1u; i *= 1u | (seed >> 27u); i *= 0x6935fa69u; i ^= (i & w) >> 11u;
    i *= 0x74dcb303u; i ^= (i & w) >> 2u; i *= 0x9e501cc3u; i ^= (i & w) >> 2u; i *= 0xc860a3dfu; i &= w; i ^= i >> 5u;
    if (i < n) { break; }
  }
  return (i + seed) % n;
}

/** The subpixel's place among the nx × ny of its pixel, and a hash of the pixel. */
fn pixelStratum(sx: i32, sy: i32, nx: u32, ny: u32) -> vec2u {
  let x = u32(((sx % i32(nx)) + i32(nx)) % i32(nx));
  let y = u32(((sy % i32(ny)) + i32(ny)) % i32(ny));
  let px = u32((sx - i32(x)) / i32(nx));
  let py = u32((sy - i32(y)) / i32(ny));
  return vec2u(y * nx + x, hashU32(px ^ hashU32(py + 0x7f4a7c15u)));
}

/** The shutter time in [0, 1) of subpixel (sx, sy): the pixel's nx·ny subpixels take one time
 * stratum each, in an order hashed from the pixel (so time does not follow the xy jitter). */
fn sampleTime(sx: i32, sy: i32, nx: u32, ny: u32) -> f32 {
  let s = pixelStratum(sx, sy, nx, ny);
  let n = nx * ny;
  let stratum = permute(s.x, n, hashU32(s.y ^ 0x2545f491u));
  let offset = f32(hashU32(s.y ^ hashU32(s.x + 0x68e31da4u)) >> 8u) / 16777216.0;
  return (f32(stratum) + offset) / f32(n);
}

/** The lens position of subpixel (sx, sy) on the unit disk: the pixel's subpixels take one cell
 * each of an nx × ny grid over the square, in another hashed order, mapped to the disk with
 * Shirley and Chiu's concentric map (strata stay compact). */
fn lensPosition(sx: i32, sy: i32, nx: u32, ny: u32) -> vec2f {
  let s = pixelStratum(sx, sy, nx, ny);
  let cell = permute(s.x, nx * ny, hashU32(s.y ^ 0x1b873593u));
  let h = hashU32(s.y ^ hashU32(s.x + 0x3c6ef372u));
  let offset = vec2f(f32(h >> 8u), f32(hashU32(h) >> 8u)) / 16777216.0;
  let square = 2.0 * (vec2f(f32(cell % nx), f32(cell / nx)) + offset) / vec2f(f32(nx), f32(ny)) - 1.0;
  if (all(square == vec2f(0.0))) { return square; }
  let quarterPi = 0.78539816339;
  if (abs(square.x) > abs(square.y)) {
    let phi = quarterPi * square.y / square.x;
    return square.x * vec2f(cos(phi), sin(phi));
  }
  let phi = 2.0 * quarterPi - quarterPi * square.x / square.y;
  return square.y * vec2f(cos(phi), sin(phi));
}
