// The jittered sample location of a subpixel: a hash of its (global) subpixel coordinates only, so
// the picture does not depend on how the frame was cut into regions. Shared by sampling and the
// pixel filter (prepended in TypeScript).
// @include trig.wgsl

fn hashU32(x: u32) -> u32 {
  var h = x * 747796405u + 2891336453u;
  h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
  return (h >> 22u) ^ h;
}

/** Offset in [0, 1)² of the sample within subpixel (sx, sy). */
fn jitter(sx: i32, sy: i32) -> vec2f {
  return jitterInRow(sx, jitterRow(sy));
}

/** What jitter takes from a subpixel row, for a loop along the row to find once (the compiler for
 * a CPU driver leaves it in the loop). */
fn jitterRow(sy: i32) -> u32 {
  return hashU32(bitcast<u32>(sy) + 0x9e3779b9u);
}

/** jitter(sx, sy) given jitterRow(sy). */
fn jitterInRow(sx: i32, row: u32) -> vec2f {
  let h = hashU32(bitcast<u32>(sx) ^ row);
  let h2 = hashU32(h);
  return vec2f(f32(h >> 8u), f32(h2 >> 8u)) / 16777216.0;
}

/** Kensler's hashed permutation ("Correlated Multi-Jittered Sampling", 2013): element i of a
 * permutation of 0..n-1 chosen by `seed`. Its cycle walking (the loop) ends in the first round when n
 * is a power of two, which the common sample counts are: that case is written without the loop, for
 * the same values, since a loop whose exit a SIMD compiler cannot foresee costs far more than the
 * round (lavapipe: the blurred depth pass took twice as long). */
fn permute(index: u32, n: u32, seed: u32) -> u32 {
  var w = n - 1u;
  w |= w >> 1u; w |= w >> 2u; w |= w >> 4u; w |= w >> 8u; w |= w >> 16u;
  if ((n & (n - 1u)) == 0u) { return (permuteRound(index, w, seed) + seed) & w; }
  var i = index;
  loop {
    i = permuteRound(i, w, seed);
    if (i < n) { break; }
  }
  return (i + seed) % n;
}

/** One round of Kensler's permutation within mask w (the next power of two, less one). */
fn permuteRound(index: u32, w: u32, seed: u32) -> u32 {
  var i = index;
  i ^= seed; i *= 0xe170893du; i ^= seed >> 16u; i ^= (i & w) >> 4u; i ^= seed >> 8u; i *= 0x0929eb3fu;
  i ^= seed >> 23u; i ^= (i & w) >> 1u; i *= 1u | (seed >> 27u); i *= 0x6935fa69u; i ^= (i & w) >> 11u;
  i *= 0x74dcb303u; i ^= (i & w) >> 2u; i *= 0x9e501cc3u; i ^= (i & w) >> 2u; i *= 0xc860a3dfu; i &= w; i ^= i >> 5u;
  return i;
}

/** A hash of pixel (px, py): computed once per pixel visited, then handed to the stratum functions below. */
fn pixelHash(px: i32, py: i32) -> u32 {
  return hashU32(bitcast<u32>(px) ^ hashU32(bitcast<u32>(py) + 0x7f4a7c15u));
}

/** Blur strata: each pixel's nx·ny subpixels take one stratum each, stratum j going to the subpixel
 * this returns (global coordinates) for pixel (px, py) of hash `pixel` (pixelHash), in an order
 * hashed from the pixel so that time and lens do not follow the xy jitter. Stratum j holds the same
 * shutter-time interval and the same lens cell in every pixel, so sampling walks a blurred
 * micropolygon stratum by stratum, visiting only the pixels its bound over that stratum's times and
 * lens cell touches. For a power-of-two count (4 × 4, 2 × 2, 8 × 8) stratum j takes subpixel
 * base(j) xor the pixel's hash bits: base, one permutation for every pixel, has a constant seed,
 * so a visited cell no longer hashes a seed and permutes for its pixel (that was most of a visit's
 * cost; the compiler still evaluates base per visit, and hoisting it by hand measured nothing), and
 * the xor reflects the pixel's subpixel grid along each axis's bits, so every pixel has its own
 * arrangement of base's and every subpixel holds every stratum as often as the others. */
fn stratumSubpixel(pixel: u32, px: i32, py: i32, j: u32, nx: u32, ny: u32) -> vec2i {
  let n = nx * ny;
  var i = 0u;
  if ((n & (n - 1u)) == 0u) {
    i = permute(j, n, 0x2545f491u) ^ (pixel & (n - 1u));
  } else {
    i = permute(j, n, hashU32(pixel ^ 0x2545f491u));
  }
  return vec2i(px * i32(nx) + i32(i % nx), py * i32(ny) + i32(i / nx));
}

/** The shutter time in [0, 1) of the sample in time stratum j of n of the pixel of hash `pixel`. */
fn stratumTime(pixel: u32, j: u32, n: u32) -> f32 {
  let offset = f32(hashU32(pixel ^ hashU32(j + 0x68e31da4u)) >> 8u) / 16777216.0;
  return (f32(j) + offset) / f32(n);
}

/** The lens cell of stratum j: a cell of an nx × ny grid over the square [-1, 1]², the same in
 * every pixel, in an order a fixed permutation decorrelates from the strata's shutter times. */
fn lensCell(j: u32, nx: u32, ny: u32) -> vec2f {
  let cell = permute(j, nx * ny, 0x1b873593u);
  return vec2f(f32(cell % nx), f32(cell / nx));
}

/** The bounding box (x0, y0, x1, y1) of the lens positions of lens cell `cell` on the unit disk.
 * Along each edge of the cell the concentric map is monotone in x and in y between the points where
 * the edge crosses a diagonal (where the map changes wedge) or an axis (where an arc of the map
 * turns), so the box of the images of the corners and those crossings is the box of the cell's
 * image. Padded by 1e-5 for rounding in lensPosition. */
fn lensCellBox(cell: vec2f, nx: u32, ny: u32) -> vec4f {
  let n = vec2f(f32(nx), f32(ny));
  let lo = 2.0 * cell / n - 1.0;
  let hi = 2.0 * (cell + 1.0) / n - 1.0;
  var boxLo = vec2f(3.0e38);
  var boxHi = vec2f(-3.0e38);
  for (var k = 0u; k < 16u; k++) {
    // Corners (k < 4), then per edge its crossings of the diagonals y = ±x and of the axis across
    // it, clamped to the edge (a crossing off the edge lands on a corner).
    let corner = select(lo, hi, vec2<bool>((k & 1u) != 0u, (k & 2u) != 0u));
    var p = corner;
    if (k >= 4u) {
      let edge = (k - 4u) / 3u;                     // 0, 1: x = lo.x, hi.x; 2, 3: y = lo.y, hi.y
      let along = f32((k - 4u) % 3u) - 1.0;          // -1, 0, 1: y = -x, the axis, y = x
      if (edge < 2u) {
        let x = select(lo.x, hi.x, edge == 1u);
        p = vec2f(x, clamp(along * x, lo.y, hi.y));
      } else {
        let y = select(lo.y, hi.y, edge == 3u);
        p = vec2f(clamp(along * y, lo.x, hi.x), y);
      }
    }
    let q = concentricDisk(p);
    boxLo = min(boxLo, q);
    boxHi = max(boxHi, q);
  }
  return vec4f(boxLo - 1.0e-5, boxHi + 1.0e-5);
}

/** The lens position on the unit disk of the sample in stratum j (lens cell `cell`) of the pixel of
 * hash `pixel`: a hashed place in the cell, mapped to the disk with Shirley and Chiu's concentric
 * map (cells stay compact). */
fn lensPosition(pixel: u32, j: u32, cell: vec2f, nx: u32, ny: u32) -> vec2f {
  let h = hashU32(pixel ^ hashU32(j + 0x3c6ef372u));
  let offset = vec2f(f32(h >> 8u), f32(hashU32(h) >> 8u)) / 16777216.0;
  return concentricDisk(2.0 * (cell + offset) / vec2f(f32(nx), f32(ny)) - 1.0);
}

/** Shirley and Chiu's concentric map of the square [-1, 1]² onto the unit disk. */
fn concentricDisk(square: vec2f) -> vec2f {
  if (all(square == vec2f(0.0))) { return square; }
  let quarterPi = 0.78539816339;
  if (abs(square.x) > abs(square.y)) {
    let phi = quarterPi * square.y / square.x;
    return square.x * sinCos(phi).yx;
  }
  let phi = 2.0 * quarterPi - quarterPi * square.x / square.y;
  return square.y * sinCos(phi).yx;
}
