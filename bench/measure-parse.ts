// Parse one RIB file in this process, timing it and sampling the process's memory while it runs:
// the measurement both RIB benchmarks take in their child processes.
import { parseRibFile } from '../src/rib/resolver-node.ts';
import type { Scene } from '../src/rib/scene.ts';

export interface ParseMeasure {
  scene: Scene;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
  heapBefore: number;
  heapAfter: number;
}

export async function measureParse(path: string): Promise<ParseMeasure> {
  const before = process.memoryUsage();
  let peak = before.rss;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
  const start = performance.now();
  const scene = await parseRibFile(path);
  const seconds = (performance.now() - start) / 1000;
  clearInterval(timer);
  const after = process.memoryUsage();
  return { scene, seconds, rssBefore: before.rss, rssPeak: Math.max(peak, after.rss), heapBefore: before.heapUsed, heapAfter: after.heapUsed };
}
