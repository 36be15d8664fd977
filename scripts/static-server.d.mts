export declare function serveStatic(dir: string): Promise<{ origin: string; close: () => void }>
