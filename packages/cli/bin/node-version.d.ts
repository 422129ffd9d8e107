/** Types of node-version.js. */
export declare const NODE_NEEDED: string;
export declare function nodeVersionProblem(
  version?: string,
  execPath?: string,
): { readonly message: string; readonly hint: string } | undefined;
