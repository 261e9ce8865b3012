// Pixel filter: each output pixel is the normalised weighted sum of the subpixel colours within
// the filter's support, each weighted at its jittered sample location (reyes-jitter.wgsl). FILTER selects the formula (src/image/pixel-filters.ts is the CPU reference):
// 0 box, 1 triangle, 2 catmull-rom, 3 gaussian, 4 sinc (Lanczos-windowed). Depth and primitive
// record per pixel: the nearest subpixel's within the pixel itself.
//
// Neighbouring pixels' supports overlap (a 2 × 2 Gaussian at 4 × 4 PixelSamples reads 81 subpixels
// a pixel), so each invocation filters a block of FILTER_BLOCK_PIXELS² pixels: it walks the block's
// supports once (441 subpixels for those 16 pixels), hashing each sample location and loading each
// colour once, and adds the sample to every pixel of the block whose support holds it. Each pixel
// still takes its samples row by row, left to right, so its sums are a pixel-by-pixel loop's to the
// bit. On lavapipe every storage load at a computed offset is a branch per SIMD lane, which is also
// why depth and records are read four subpixels a load (stages/sample.ts pads those buffers to whole
// vec4s).
// @include reyes-jitter.wgsl
// @layout filter-params
// @layout filter-block

override FILTER: u32 = 3u;
const PI: f32 = 3.14159265358979;
const BLOCK: u32 = FILTER_BLOCK_PIXELS;
const NO_RECORD: u32 = 0xffffffffu;

@group(0) @binding(0) var<uniform> params: FilterParams;
@group(0) @binding(1) var<storage, read> subpixels: array<vec4f>;
@group(0) @binding(2) var<storage, read> subpixelDepth: array<vec4f>;
@group(0) @binding(3) var<storage, read_write> pixels: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> pixelDepth: array<f32>;
@group(0) @binding(5) var<storage, read> subpixelId: array<vec4u>;
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

/** The subpixels (first, last: global, inclusive, clipped to the buffer) of the filter's support
 * along one axis around pixel centre `center`; empty (last < first) for a pixel past the output's
 * edge (`inside` false). */
fn supportRange(center: f32, halfWidth: f32, samples: f32, bufferFirst: i32, bufferLast: i32, inside: bool) -> vec2i {
  let first = max(i32(floor((center - halfWidth) * samples)), bufferFirst);
  let last = min(i32(floor((center + halfWidth) * samples)), bufferLast);
  return vec2i(first, select(first - 1, last, inside));
}

/** Depth and primitive record of pixel (px, py): its nearest subpixel's, the first in row order
 * among equals, and a later equal one's record where the first has none. */
fn nearestSample(px: i32, py: i32) -> vec2u {
  var depth = 3.0e38;
  var nearest = NO_RECORD;
  let columns = vec2i(max(px * i32(params.nx), params.originX), min((px + 1) * i32(params.nx), params.originX + i32(params.bufferWidth)));
  for (var sy = max(py * i32(params.ny), params.originY); sy < min((py + 1) * i32(params.ny), params.originY + i32(params.bufferHeight)); sy++) {
    let row = u32(sy - params.originY) * params.bufferWidth;
    let start = row + u32(columns.x - params.originX);
    let end = row + u32(columns.y - params.originX);
    for (var group = start / 4u; group * 4u < end; group++) {
      let depths = subpixelDepth[group];
      let records = subpixelId[group];
      for (var c = 0u; c < 4u; c++) {
        let s = group * 4u + c;
        if (s < start || s >= end) { continue; }
        let d = depths[c];
        if (d < depth || (d == depth && nearest == NO_RECORD)) {
          depth = d;
          nearest = records[c];
        }
      }
    }
  }
  return vec2u(bitcast<u32>(depth), nearest);
}

@compute @workgroup_size(FILTER_BLOCK_LANES)
fn filterPixels(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u,
                @builtin(local_invocation_index) local: u32) {
  let blocksX = (params.width + BLOCK - 1u) / BLOCK;
  let flat = (group.x + group.y * groups.x) * FILTER_BLOCK_LANES + local;
  if (flat >= blocksX * ((params.height + BLOCK - 1u) / BLOCK)) { return; }
  let block = vec2u(flat % blocksX, flat / blocksX) * BLOCK;
  let scale = vec2f(f32(params.nx), f32(params.ny));
  let halfWidth = 0.5 * vec2f(params.xWidth, params.yWidth);
  let bufferLast = vec2i(params.originX + i32(params.bufferWidth) - 1, params.originY + i32(params.bufferHeight) - 1);
  // Per column i and row j of the block: pixel centre and support; the block's support is their union.
  var centerX: array<f32, BLOCK>;
  var centerY: array<f32, BLOCK>;
  var columns: array<vec2i, BLOCK>;
  var rows: array<vec2i, BLOCK>;
  var walkX = vec2i(bufferLast.x + 1, params.originX - 1);
  var walkY = vec2i(bufferLast.y + 1, params.originY - 1);
  for (var i = 0u; i < BLOCK; i++) {
    centerX[i] = f32(params.pixelX + i32(block.x + i)) + 0.5;
    columns[i] = supportRange(centerX[i], halfWidth.x, scale.x, params.originX, bufferLast.x, block.x + i < params.width);
    centerY[i] = f32(params.pixelY + i32(block.y + i)) + 0.5;
    rows[i] = supportRange(centerY[i], halfWidth.y, scale.y, params.originY, bufferLast.y, block.y + i < params.height);
    if (columns[i].y >= columns[i].x) { walkX = vec2i(min(walkX.x, columns[i].x), max(walkX.y, columns[i].y)); }
    if (rows[i].y >= rows[i].x) { walkY = vec2i(min(walkY.x, rows[i].x), max(walkY.y, rows[i].y)); }
  }
  var sums: array<vec4f, BLOCK * BLOCK>;
  var totals: array<f32, BLOCK * BLOCK>;
  for (var sy = walkY.x; sy <= walkY.y; sy++) {
    let row = jitterRow(sy);
    for (var sx = walkX.x; sx <= walkX.y; sx++) {
      let q = (vec2f(f32(sx), f32(sy)) + jitterInRow(sx, row)) / scale;
      let colour = subpixels[u32(sy - params.originY) * params.bufferWidth + u32(sx - params.originX)];
      for (var j = 0u; j < BLOCK; j++) {
        if (sy < rows[j].x || sy > rows[j].y) { continue; }
        for (var i = 0u; i < BLOCK; i++) {
          if (sx < columns[i].x || sx > columns[i].y) { continue; }
          let w = weight(q.x - centerX[i], q.y - centerY[j]);
          if (w == 0.0) { continue; }
          sums[j * BLOCK + i] += w * colour;
          totals[j * BLOCK + i] += w;
        }
      }
    }
  }
  for (var j = 0u; j < BLOCK; j++) {
    for (var i = 0u; i < BLOCK; i++) {
      let id = block + vec2u(i, j);
      if (id.x >= params.width || id.y >= params.height) { continue; }
      let k = j * BLOCK + i;
      var result = vec4f(0.0);
      if (totals[k] != 0.0) { result = sums[k] / totals[k]; }
      let nearest = nearestSample(params.pixelX + i32(id.x), params.pixelY + i32(id.y));
      let o = id.y * params.width + id.x;
      pixels[o] = result;
      pixelDepth[o] = bitcast<f32>(nearest.x);
      pixelId[o] = nearest.y;
    }
  }
}
