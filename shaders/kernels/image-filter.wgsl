// Pixel filter: each output pixel is the normalised weighted sum of the subpixel colours within
// the filter's support, each weighted at its jittered sample location (reyes-jitter.wgsl). FILTER selects the formula (src/image/pixel-filters.ts is the CPU reference):
// 0 box, 1 triangle, 2 catmull-rom, 3 gaussian, 4 sinc (Lanczos-windowed). Depth and primitive
// record per pixel: the nearest subpixel's within the pixel itself.
// @include reyes-jitter.wgsl

override FILTER: u32 = 3u;
const PI: f32 = 3.14159265358979;

struct FilterParams {
  pixelX: i32,           // output rectangle, global pixels
  pixelY: i32,
  width: u32,
  height: u32,
  originX: i32,          // subpixel buffer, global subpixels
  originY: i32,
  bufferWidth: u32,
  bufferHeight: u32,
  nx: u32,
  ny: u32,
  xWidth: f32,
  yWidth: f32,
}

@group(0) @binding(0) var<uniform> params: FilterParams;
@group(0) @binding(1) var<storage, read> subpixels: array<vec4f>;
@group(0) @binding(2) var<storage, read> subpixelDepth: array<f32>;
@group(0) @binding(3) var<storage, read_write> pixels: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> pixelDepth: array<f32>;
@group(0) @binding(5) var<storage, read> subpixelId: array<u32>;
@group(0) @binding(6) var<storage, read_write> pixelId: array<u32>;

fn catmullRom(x: f32) -> f32 {
  let a = abs(x);
  if (a < 1.0) { return 1.5 * a * a * a - 2.5 * a * a + 1.0; }
  if (a < 2.0) { return -0.5 * a * a * a + 2.5 * a * a - 4.0 * a + 2.0; }
  return 0.0;
}

fn sinc(x: f32) -> f32 {
  if (abs(x) < 1.0e-6) { return 1.0; }
  return sin(PI * x) / (PI * x);
}

fn weight(x: f32, y: f32) -> f32 {
  let hx = 0.5 * params.xWidth;
  let hy = 0.5 * params.yWidth;
  if (abs(x) > hx || abs(y) > hy) { return 0.0; }
  switch FILTER {
    case 0u: { return 1.0; }
    case 1u: { return (1.0 - abs(x) / hx) * (1.0 - abs(y) / hy); }
    case 2u: { return catmullRom(x) * catmullRom(y); }
    case 4u: { return sinc(x) * sinc(x / hx) * sinc(y) * sinc(y / hy); }
    default: {
      let gx = 2.0 * x / params.xWidth;
      let gy = 2.0 * y / params.yWidth;
      return exp(-2.0 * (gx * gx + gy * gy));
    }
  }
}

@compute @workgroup_size(64)
fn filterPixels(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                @builtin(local_invocation_index) local: u32) {
  let flat = (group.x + group.y * groups.x) * 64u + local;
  if (flat >= params.width * params.height) { return; }
  let id = vec2u(flat % params.width, flat / params.width);
  let px = params.pixelX + i32(id.x);
  let py = params.pixelY + i32(id.y);
  let center = vec2f(f32(px) + 0.5, f32(py) + 0.5);
  let scale = vec2f(f32(params.nx), f32(params.ny));
  let lo = max(vec2i(floor((center - 0.5 * vec2f(params.xWidth, params.yWidth)) * scale)), vec2i(params.originX, params.originY));
  let hi = min(vec2i(floor((center + 0.5 * vec2f(params.xWidth, params.yWidth)) * scale)),
               vec2i(params.originX + i32(params.bufferWidth) - 1, params.originY + i32(params.bufferHeight) - 1));
  var sum = vec4f(0.0);
  var total = 0.0;
  for (var sy = lo.y; sy <= hi.y; sy++) {
    for (var sx = lo.x; sx <= hi.x; sx++) {
      let q = (vec2f(f32(sx), f32(sy)) + jitter(sx, sy)) / scale;
      let w = weight(q.x - center.x, q.y - center.y);
      if (w == 0.0) { continue; }
      let s = u32(sy - params.originY) * params.bufferWidth + u32(sx - params.originX);
      sum += w * subpixels[s];
      total += w;
    }
  }
  var result = vec4f(0.0);
  if (total != 0.0) { result = sum / total; }
  // Depth: the nearest sample within the pixel itself.
  var depth = 3.0e38;
  var nearest = 0xffffffffu;
  for (var sy = max(py * i32(params.ny), params.originY); sy < min((py + 1) * i32(params.ny), params.originY + i32(params.bufferHeight)); sy++) {
    for (var sx = max(px * i32(params.nx), params.originX); sx < min((px + 1) * i32(params.nx), params.originX + i32(params.bufferWidth)); sx++) {
      let s = u32(sy - params.originY) * params.bufferWidth + u32(sx - params.originX);
      let d = subpixelDepth[s];
      if (d < depth || (d == depth && nearest == 0xffffffffu)) {
        depth = d;
        nearest = subpixelId[s];
      }
    }
  }
  let o = id.y * params.width + id.x;
  pixels[o] = result;
  pixelDepth[o] = depth;
  pixelId[o] = nearest;
}
