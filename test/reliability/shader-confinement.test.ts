// Shaders and #include files come only from the scene's tree and the folders the user gave
// (--shader-path), as archives do: a RIB's Option "searchpath" "shader" pointing elsewhere is
// warned about at the Option and not searched, symbolic links leading out are refused, and a
// refused include never shows anything of the file it points to.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRibSync } from '../../src/rib/index.ts';
import { nodeShaderLookup } from '../../src/reyes/shading/node-shaders.ts';
import { checkSource } from '../../src/rsl/frontend.ts';
import { fileIncludeResolver, findShaderFile } from '../../src/rsl/node-resolver.ts';

const SHADER = 'surface evil() { Ci = color(1, 0, 0); }\n';
const SECRET = 'SECRET_TOKEN_4711 and the rest of a private file\n';

/** A scene folder and a folder outside it holding a shader and a private file. */
function tree() {
  const root = mkdtempSync(path.join(tmpdir(), 'reyes-shaders-'));
  const scene = path.join(root, 'scene');
  const outside = path.join(root, 'outside');
  mkdirSync(scene);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'evil.sl'), SHADER);
  writeFileSync(path.join(outside, 'secret.h'), SECRET);
  return { root, scene, outside };
}

describe('shader lookup confined to the scene and --shader-path', () => {
  it('finds a shader file in the scene folder, but not one a symbolic link there leads out to', () => {
    const { scene, outside } = tree();
    writeFileSync(path.join(scene, 'good.sl'), SHADER.replace('evil', 'good'));
    symlinkSync(path.join(outside, 'evil.sl'), path.join(scene, 'evil.sl'));
    expect(findShaderFile('good', [scene])?.text).toContain('surface good');
    expect(findShaderFile('evil', [scene])).toBeUndefined();
    // A linked folder leading out is refused the same way.
    symlinkSync(outside, path.join(scene, 'lib'));
    expect(findShaderFile('lib/evil', [scene])).toBeUndefined();
    expect(findShaderFile('../outside/evil', [scene])).toBeUndefined();
  });

  it('does not search a folder the RIB names outside the scene and --shader-path', () => {
    const { scene, outside } = tree();
    const lookup = nodeShaderLookup({ sceneDir: scene });
    expect(lookup('evil', [outside])).toBeUndefined();
    expect(lookup('evil', ['../outside'])).toBeUndefined();
    // Given on the command line, the same folder is searched.
    expect(nodeShaderLookup({ sceneDir: scene, shaderPath: [outside] })('evil', ['@'])?.file).toBe(path.join(outside, 'evil.sl'));
  });

  it('warns at the Option about a shader search path outside the scene and --shader-path', () => {
    const rib = 'Option "searchpath" "shader" ["/any/dir:lib:&"]\nWorldBegin\nWorldEnd\n';
    const scene = parseRibSync(rib, { fileName: '/shot/main.rib', shaderSearchPaths: ['/studio/shaders'] });
    expect(scene.warnings.map((w) => [w.line, w.column, w.request, w.message])).toEqual([
      [1, 1, 'Option', 'shader search path /any/dir is outside the scene folder and the configured search paths; no shader is read from there'],
    ]);
    const allowed = parseRibSync('Option "searchpath" "shader" ["/studio/shaders/metal:lib:@"]\nWorldBegin\nWorldEnd\n', { fileName: '/shot/main.rib', shaderSearchPaths: ['/studio/shaders'] });
    expect(allowed.warnings).toEqual([]);
  });
});

describe('#include confined like shaders', () => {
  it('includes a file beside the shader, refuses one outside or linked out, and never echoes its content', () => {
    const { scene, outside } = tree();
    writeFileSync(path.join(scene, 'colours.h'), '#define RED color(1, 0, 0)\n');
    symlinkSync(path.join(outside, 'secret.h'), path.join(scene, 'linked.h'));
    const resolveInclude = fileIncludeResolver([scene]);
    const file = path.join(scene, 'main.sl');
    const ok = checkSource('#include "colours.h"\nsurface s() { Ci = RED; }\n', file, { resolveInclude });
    expect(ok.diagnostics.list.filter((d) => d.severity === 'error')).toEqual([]);
    for (const [name, column] of [['linked.h', 10], ['../outside/secret.h', 10], [path.join(outside, 'secret.h'), 10]] as const) {
      const refused = checkSource(`#include "${name}"\nsurface s() { Ci = 1; }\n`, file, { resolveInclude });
      const messages = refused.diagnostics.list.map((d) => `${d.line}:${d.column}: ${d.message}`);
      expect(messages).toEqual([`1:${column}: cannot find include file "${name}"`]);
      expect(messages.join('\n')).not.toContain('SECRET_TOKEN');
    }
  });
});
