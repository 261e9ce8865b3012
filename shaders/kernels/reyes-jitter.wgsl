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
