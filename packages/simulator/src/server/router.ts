/** A route as the router sees it: a method and a path pattern with `{name}` parameters. */
export interface RoutePattern {
  readonly method: string;
  readonly pattern: string;
}

/** A matched route with its decoded path parameters. */
export interface RouteMatch<R> {
  readonly route: R;
  readonly params: Record<string, string>;
}

interface CompiledRoute<R> {
  readonly route: R;
  readonly segments: readonly string[];
}

/**
 * Matches request paths against `{param}` patterns, segment by segment.
 * Literal segments win over parameters when both match (first in table order otherwise).
 */
export class Router<R extends RoutePattern> {
  private readonly compiled: CompiledRoute<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.pattern.split('/') }));
  }

  /** The route for `method` and `path`, or undefined when none matches (either unknown path or method). */
  match(method: string, path: string): RouteMatch<R> | undefined {
    const parts = path.split('/');
    let best: RouteMatch<R> | undefined;
    let bestLiterals = -1;
    for (const { route, segments } of this.compiled) {
      if (route.method !== method || segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let literals = 0;
      let ok = true;
      for (let i = 0; i < segments.length; i++) {
        const segment = segments[i] as string;
        const part = parts[i] as string;
        if (segment.startsWith('{') && segment.endsWith('}')) {
          if (part === '') {
            ok = false;
            break;
          }
          const value = safeDecode(part);
          if (value === undefined) {
            ok = false;
            break;
          }
          params[segment.slice(1, -1)] = value;
        } else if (segment === part) {
          literals++;
        } else {
          ok = false;
          break;
        }
      }
      if (ok && literals > bestLiterals) {
        best = { route, params };
        bestLiterals = literals;
      }
    }
    return best;
  }
}

function safeDecode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
