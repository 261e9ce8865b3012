// Snippets for derivatives, lighting (illuminance with cone and category, the lights' illuminate and
// solar, ambient/diffuse/specular/phong), message passing and the information functions, and the
// functions the compiler stubs (they assert the documented result).
import type { Snippet } from './snippet.ts';

const s = (name: string, body: string, extra: Partial<Snippet> = {}): Snippet => ({ name, body, ...extra });
const lit = (name: string, body: string, extra: Partial<Snippet> = {}): Snippet => ({ name, body, lights: 'standard', ...extra });
const custom = (name: string, body: string, extra: Partial<Snippet> = {}): Snippet => ({ name, body, lights: 'custom', ...extra });
const msg = (name: string, body: string, extra: Partial<Snippet> = {}): Snippet => ({ name, body, lights: 'messages', ...extra });

export const DERIVATIVES: Snippet[] = [
  s('du-dv-float', 'float f = s * s + 3 * t; r = color(Du(f), Dv(f), Du(t));'),
  s('du-dv-exact', 'float f = 3 * u + 2 * v; r = color(Du(f), Dv(f), Du(v));', { expect: [3, 2, 0] }),
  s('du-dv-point', 'vector a = Du(P); vector b = Dv(P); r = color(a . dPdu, b . dPdv, length(a ^ b));'),
  s('du-dv-color', 'r = Du(Cs) + Dv(Cs);'),
  s('du-nonlinear', 'float f = u * u * u; r = color(Du(f), Dv(f * v), 0);'),
  s('deriv', 'float f = s * t; r = color(Deriv(f, s), 0, 0) + color(Deriv(P, u)) * 0.5;'),
  s('deriv-color', 'r = Deriv(Cs, t);'),
  s('deriv-in-varying-if', 'float f = s * s; if (u > 0.5) r = color(Du(f), 0, 0); else r = color(0, Dv(f * t), 1);'),
  s('deriv-both-branches', 'float f = t * t + s; if (v > 0.4) r = color(Du(f), Dv(f), 0); else r = color(Dv(f), Du(f), 1);'),
  s('deriv-after-assignment', 'float f = s; f = f * 3 + t; r = color(Du(f), Dv(f), 0);'),
  s('deriv-of-noise', 'float f = noise(P * 1.3); r = color(Du(f), Dv(f), f);'),
  s('deriv-in-function', 'r = grad2(s * s + t);', { functions: 'color grad2(float f) { return color(Du(f), Dv(f), 0); }' }),
  s('area', 'r = color(area(P), area(P * 2), area(point(s, t, 0)));'),
  s('calculatenormal', 'normal n = normalize(calculatenormal(P)); r = color(n);'),
  s('calculatenormal-exact', 'normal n = calculatenormal(point(u, v, 0)); r = color(n);', { expect: [0, 0, 1] }),
  s('bump-like', 'point p = P + N * 0.1 * s * t; normal n = normalize(calculatenormal(p)); r = color(n . N, length(n), 0);'),
  s('du-strip-is-zero', 'float f = s * 5 + t; r = color(Du(f), Dv(f), area(P));', { grid: 'strip' }),
  s('dv-strip', 'r = color(Dv(t)) + color(Dv(P)) + Du(Cs);', { grid: 'strip' }),
];

export const LIGHTING: Snippet[] = [
  lit('illuminance-all', 'illuminance(P) { r += Cl; }'),
  lit('illuminance-cone', 'illuminance(P, N, PI / 2) { r += Cl * (normalize(L) . normalize(N)); }'),
  lit('illuminance-narrow-cone', 'illuminance(P, vector(0, 0, -1), 0.5) { r += Cl; }'),
  lit('illuminance-reads-L', 'illuminance(P) { r += color(L) * 0.01; }'),
  lit('illuminance-break', 'illuminance(P) { r += Cl; break; }'),
  lit('illuminance-continue', 'illuminance(P) { if (length(L) > 10) continue; r += Cl; }'),
  lit('illuminance-nested-loop-break-two', 'float i; illuminance(P) { for (i = 0; i < 3; i += 1) { if (i > 1) break 2; r += Cl * 0.1; } }'),
  lit('illuminance-in-varying-if', 'if (u > 0.3) { illuminance(P, N, PI / 2) { r += Cl; } } else r = 1;'),
  lit('two-illuminance-loops', 'color a = 0, b = 0; illuminance(P, N, PI / 2) a += Cl; illuminance(P, N, PI / 2) b += Cl * (normalize(L) . normalize(N)); r = a + b;'),
  lit('dependent-illuminance-loops', 'color a = 0; illuminance(P, N, PI / 2) a += Cl; illuminance(P, N, PI / 2) r += Cl * comp(a, 0);'),
  lit('illuminance-other-position', 'illuminance(P + N * 0.5) r += Cl;'),
  lit('ambient', 'r = ambient();'),
  lit('diffuse', 'r = diffuse(normalize(N));'),
  lit('specular', 'r = specular(normalize(N), -normalize(I), 0.2);'),
  lit('phong', 'r = phong(normalize(N), -normalize(I), 20);'),
  lit('specularbrdf', 'illuminance(P, N, PI / 2) r += Cl * specularbrdf(normalize(L), normalize(N), -normalize(I), 0.3);'),
  lit('plastic-model', 'normal Nf = faceforward(normalize(N), I); r = Cs * (ambient() + diffuse(Nf)) + specular(Nf, -normalize(I), 0.1);'),
  lit('Ol-default', 'illuminance(P) r += Ol;'),
  custom('illuminance-category', 'illuminance("key", P) { r += Cl; }'),
  custom('illuminance-category-cone', 'illuminance("fill", P, N, PI / 2) { r += Cl; }'),
  custom('illuminance-category-exclude', 'illuminance("-key", P) { r += Cl; }'),
  custom('illuminance-category-none', 'illuminance("nosuch", P) { r += 1; }', { expect: [0, 0, 0] }),
  custom('solar-and-cone-light', 'illuminance(P) { r += Cl + Ol * 0.1; }'),
  custom('solar-L-direction', 'illuminance("rim", P) { r = color(normalize(L)); }'),
  custom('custom-ambient', 'r = ambient();', { expect: [0.2, 0.2, 0.2] }),
  custom('custom-diffuse-specular', 'r = diffuse(N) + specular(N, -normalize(I), 0.3);'),
];

/**
 * Message passing (lightsource() inside illuminance, surface() from a light, output parameters of
 * lights, __nondiffuse/__nonspecular in diffuse()/specular()/phong()) and the information functions.
 * Light set 'messages': light0 msglight (tag 7, tint, name "keyname", output __nonspecular set to 1),
 * light1 msglight2 (category "msgb", __nondiffuse 0.25, reads surface("msgKd"), output tag = 3 + kd),
 * light2 ambientlight.
 */
export const MESSAGES: Snippet[] = [
  msg('lightsource-float', 'illuminance(P) { float x = -1; float ok = lightsource("tag", x); r += color(ok, x, 0) * 0.1; }'),
  msg('lightsource-output-param', 'illuminance(P) { float ns = -1; float ok = lightsource("__nonspecular", ns); r += color(ok, ns, 1); }', { expect: [1, 0, 2] }),
  msg('lightsource-color-string', 'illuminance(P) { color c = 0; string n = "none"; float ok = lightsource("tint", c) + lightsource("name", n); r += c + color(ok, 0, (n == "keyname") ? 1 : 0); }', { expect: [2.2, 0.4, 1.6] }),
  msg('lightsource-type-mismatch', 'illuminance(P) { color c = 5; float ok = lightsource("tag", c) + lightsource("nosuch", c); r += color(ok) + c; }', { expect: [10, 10, 10] }),
  msg('lightsource-outside-illuminance', 'float x = 4; float ok = lightsource("tag", x); r = color(ok, x, 0);', { expect: [0, 4, 0] }),
  msg('lightsource-in-function', 'illuminance("msgb", P) r += lighttag();', { functions: 'color lighttag() { float x = 0; lightsource("tag", x); return color(x); }' }),
  // The light sees msgKd as the surface left it (0.6, not the default 0.3), and lightsource() sees the
  // light's output tag as the light left it (3 + 0.6).
  msg('light-reads-surface-param', 'msgKd = 0.6; illuminance("msgb", P) { float x = 0; lightsource("tag", x); r += Cl + color(0, 0, x); }', { params: 'float msgKd = 0.3', expect: [1.28, 1.28, 4.88] }),
  msg('nondiffuse-nonspecular', 'normal Nf = normalize(N); r = diffuse(Nf) + specular(Nf, -normalize(I), 0.2) + phong(Nf, -normalize(I), 8);'),
  msg('plastic-with-message-lights', 'normal Nf = faceforward(normalize(N), I); r = Cs * (ambient() + diffuse(Nf)) + specular(Nf, -normalize(I), 0.1);'),
  s('rendererinfo', 'float ver[4]; float x = 2; string n = "a"; float ok = rendererinfo("version", ver) + rendererinfo("renderer", n) + rendererinfo("version", x); float ok2 = rendererinfo("versionstring", n); r = color(ok + ok2, ver[1] + x, (n == "0.1.0") ? 1 : 0);', { expect: [3, 3, 1] }),
  s('option', 'float fmt[3]; float q = 0; string m = ""; color c = 5; float crop[4]; float ok = option("Format", fmt) + option("user:quality", q) + option("user:mode", m) + option("Format", c) + option("nosuch", q) + option("CropWindow", crop) + option("CropWindow", c); r = color(ok, fmt[0] / 640 + q + crop[3], (m == "fast") ? comp(c, 1) : -1);', { expect: [5, 3.75, 480] }),
  s('attribute', 'float sr = 0; color w = 0; string n = ""; float sides = 9; float ok = attribute("ShadingRate", sr) + attribute("user:weight", w) + attribute("identifier:name", n) + attribute("Sides", sides) + attribute("ShadingRate", w); r = color(ok, sr + comp(w, 2), (n == "thing") ? sides : -1);', {
    overrides: { 'attribute:ShadingRate': [0.5], 'attribute:user:weight': [0.25, 0.5, 0.75], 'attribute:identifier:name': 'thing' }, expect: [3, 1.25, 9],
  }),
  s('attribute-array-and-varying-use', 'float a[2]; float ok = attribute("user:pair", a); r = color(ok, a[0] * s, a[1] * t);', { overrides: { 'attribute:user:pair': [2, 3] } }),
];

/** Functions the compiler stubs, with the behaviour the corpus asserts. */
export const STUBS: Snippet[] = [
  s('incident-opposite', 'float x = 4; color c = 1; float ok = incident("a", x) + opposite("b", c) + incident("c", c) + opposite("d", x); r = color(ok, x, comp(c, 1));', { stub: 'incident() and opposite() return 0 with a compile-time warning (interior/exterior volume shaders need ray tracing)', expect: [0, 4, 1] }),
  s('message-missing', 'float x = 6; color c = 1; string n = "z"; float ok = displacement("nosuch", x) + atmosphere("nosuch", c) + displacement("n", n) + atmosphere("n", n); r = color(ok, x, 0);', { stub: 'displacement()/atmosphere() return 0 when the pipeline has no such shader or parameter', expect: [0, 6, 0] }),
  s('raytrace-calls', 'color c = trace(P, N); float f = trace(P, N); color tc = transmission(P, P + N, "samples", 4); float tf = transmission(P, P + N); float o = occlusion(P, N, 16, "maxdist", 2); color d = indirectdiffuse(P, N, 16); color e = environment("raytrace", N); r = c + color(f + tf, comp(tc, 1) + o, visibility(P, P + N)) + d + e;', { stub: 'without ray tracing trace(), occlusion(), indirectdiffuse() and environment("raytrace") return 0, transmission() and visibility() 1 (one warning per shader)', expect: [1, 1, 1] }),
  s('rayinfo-depth', 'float d = 5, x = 7; color c = 2; float ok = rayinfo("depth", d) + rayinfo("nosuch", x) + rayinfo("depth", c); r = color(ok, d, x + comp(c, 0));', { stub: 'rayinfo("depth") is 0 (every point is shaded for a camera ray); other queries return 0 and leave the variable alone', expect: [1, 0, 9] }),
  s('gather-misses', 'float hits = 0, misses = 0; color hc = 0; gather("illuminance", P, N, PI / 2, 6, "surface:Ci", hc) { hits += 1; } else { misses += 1; if (misses >= 3) break; } r = color(hits, misses, comp(hc, 0));', { stub: 'gather traces no rays: every sample misses, so the else branch runs once per sample (break leaves the loop)', expect: [0, 3, 0] }),
  s('message-surface-self', 'float x = 6; color c = 1; string n = "z"; float ok = surface("Kd", x) + surface("c", c) + surface("n", n); r = color(ok, x, 0);', { stub: 'surface() called from the surface itself returns 0', expect: [0, 6, 0] }),
];

