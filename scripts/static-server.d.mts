export declare function serveStatic(
  dir: string,
  options?: { cleanUrls?: boolean },
): Promise<{ origin: string; close: () => void }>
