// The part of madge (no types of its own) that scripts/domainGraph.ts uses.
declare module 'madge' {
  interface MadgeResult {
    /** file → the files it imports, relative to the base directory. */
    obj(): Record<string, string[]>;
  }
  export default function madge(path: string, config?: { fileExtensions?: string[]; tsConfig?: string }): Promise<MadgeResult>;
}
