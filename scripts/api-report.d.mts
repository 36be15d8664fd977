export type ApiName = { name: string; kind: string; file: string; doc: string | undefined }
export type ApiReport = Record<string, { runtime: ApiName[]; types: ApiName[] }>
export declare const reportPath: string
export declare function entries(root?: string): { specifier: string; file: string }[]
export declare function api(root?: string): ApiReport
export declare function render(report: ApiReport): string
