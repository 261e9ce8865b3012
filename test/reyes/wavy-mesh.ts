// A wavy bilinear PatchMesh for the tests that need many records: one record per patch.

/** A wavy n × n bilinear PatchMesh (n² records) with a colour and a user float per vertex. */
export function mesh(n: number, z: number): string {
  const P: number[] = [];
  const Cs: number[] = [];
  const foo: number[] = [];
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const x = (i / n) * 2 - 1;
      const y = (j / n) * 2 - 1;
      P.push(x, y, z + 0.15 * Math.sin(3 * x) * Math.cos(2 * y));
      Cs.push(i / n, j / n, 0.5);
      foo.push((i * 7 + j * 3) % 11 / 10);
    }
  }
  return `PatchMesh "bilinear" ${n + 1} "nonperiodic" ${n + 1} "nonperiodic" "P" [${P.join(' ')}] "Cs" [${Cs.join(' ')}] "varying float foo" [${foo.join(' ')}]`;
}
