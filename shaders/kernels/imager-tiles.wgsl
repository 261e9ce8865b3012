// Imager tiles (src/reyes/stages/imager.ts): the filtered image's premultiplied RGBA to the imager
// kernel's grid records (imagerGridLayout: P, Ci, Oi, alpha; offsets as pipeline constants) and back.
// One workgroup per tile of TILE_W × TILE_H pixels; the tile's vertex k = j * nu + i is pixel (i, j)
// of the tile, nu its width (narrower at the image's right edge), as the imager kernel reads it.
// `rgba` holds the image rows firstRow.. of the batch only.

override MAXV: u32 = 256u;
override RECORD_FLOATS: u32;
override OFF_P: u32;
override OFF_CI: u32;
override OFF_OI: u32;
override OFF_ALPHA: u32;
override TILE_W: u32 = 16u;
override TILE_H: u32 = 16u;
// 1: the picture's alpha is the imager's alpha; 0: the mean of its Oi.
override ALPHA_FROM_IMAGER: u32 = 1u;

struct TileParams {
  width: u32,         // image pixels
  height: u32,
  tilesX: u32,        // tiles per tile row
  firstTile: u32,     // the batch's first tile (row-major over the image)
  tileCount: u32,
  firstRow: u32,      // image row of rgba[0]
  originX: f32,       // raster position of the image's pixel (0, 0)
  originY: f32,
}

@group(0) @binding(0) var<uniform> params: TileParams;
@group(0) @binding(1) var<storage, read_write> rgba: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> grids: array<f32>;

struct TilePixel {
  ok: bool,
  record: u32,   // the tile's record base in grids
  k: u32,        // the vertex within the record
  x: u32,
  y: u32,
}

fn tilePixel(group: u32, lid: u32) -> TilePixel {
  var out: TilePixel;
  out.ok = false;
  if (group >= params.tileCount) { return out; }
  let tile = params.firstTile + group;
  let x0 = (tile % params.tilesX) * TILE_W;
  let y0 = (tile / params.tilesX) * TILE_H;
  let nu = min(TILE_W, params.width - x0);
  let nv = min(TILE_H, params.height - y0);
  if (lid >= nu * nv) { return out; }
  out.ok = true;
  out.record = group * RECORD_FLOATS;
  out.k = lid;
  out.x = x0 + lid % nu;
  out.y = y0 + lid / nu;
  return out;
}

fn pixelIndex(p: TilePixel) -> u32 {
  return (p.y - params.firstRow) * params.width + p.x;
}

@compute @workgroup_size(MAXV)
fn packTiles(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let p = tilePixel(wid.x + wid.y * nwg.x, lid);
  if (!p.ok) { return; }
  let c = rgba[pixelIndex(p)];
  let r = p.record + p.k;
  grids[r + OFF_P] = params.originX + f32(p.x) + 0.5;
  grids[r + OFF_P + MAXV] = params.originY + f32(p.y) + 0.5;
  grids[r + OFF_P + 2u * MAXV] = 0.0;
  for (var i = 0u; i < 3u; i++) {
    grids[r + OFF_CI + i * MAXV] = c[i];
    grids[r + OFF_OI + i * MAXV] = c.w;
  }
  grids[r + OFF_ALPHA] = c.w;
}

@compute @workgroup_size(MAXV)
fn unpackTiles(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let p = tilePixel(wid.x + wid.y * nwg.x, lid);
  if (!p.ok) { return; }
  let r = p.record + p.k;
  let ci = vec3f(grids[r + OFF_CI], grids[r + OFF_CI + MAXV], grids[r + OFF_CI + 2u * MAXV]);
  let oi = vec3f(grids[r + OFF_OI], grids[r + OFF_OI + MAXV], grids[r + OFF_OI + 2u * MAXV]);
  let alpha = select((oi.x + oi.y + oi.z) / 3.0, grids[r + OFF_ALPHA], ALPHA_FROM_IMAGER == 1u);
  rgba[pixelIndex(p)] = vec4f(ci, alpha);
}
