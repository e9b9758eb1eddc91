/** An API object as tests read it. */
export type Obj = Record<string, any>;

/** A response as the checks below need it. */
export type Answer = { status: number; body: any };

/** The body of a 201, or an error naming what came instead (a setup step that must succeed). */
export async function created(res: Answer): Promise<Obj> {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Obj;
}
