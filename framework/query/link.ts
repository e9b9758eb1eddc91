/** Where a many-to-many field keeps its links. */
export interface LinkSpec {
  table: string;
  owner: string;
  target: string;
  /** Generic link tables (tags) hold links of every model, told apart by this column. */
  discriminator?: { column: string; value: string };
  /** Column holding a generated UUID primary key, when the link table has one. */
  idColumn?: string;
}
