// WGSL has no imports: kernels that share WGSL functions get them prepended here, once.
import workgroupScanSource from '../../shaders/kernels/workgroup-scan.wgsl?raw';

/** `source` (which defines WORKGROUP and RAKES) with workgroupExclusiveScan in front. */
export function withWorkgroupScan(source: string): string {
  return `${workgroupScanSource}\n${source}`;
}
