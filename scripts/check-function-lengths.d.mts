export type FunctionSpan = { name: string; line: number; end: number; lines: number }
export declare function tokenize(
  source: string,
  options?: { jsx?: boolean },
): { type: string; value: string; line: number }[]
export declare function functionsOf(source: string, options?: { jsx?: boolean }): FunctionSpan[]
export declare function sourceFiles(dir: string): string[]
