import { ChangeLoggedModel, Field, graphqlSyntaxError, graphqlVariableDefaults, Model, NotesUrl, ValidationError, type Values } from '../../framework';

/** A named GraphQL query stored for reuse, run through `/run/` (Nautobot's GraphQLQuery). */
@Model({
  path: 'graphql-queries',
  display: 'name',
  brief: ['name'],
  ordering: ['slug'],
  search: ['name', 'slug', 'query'],
  verboseName: 'GraphQL query',
  verboseNamePlural: 'GraphQL queries',
})
export class GraphQLQuery extends ChangeLoggedModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.Text({ lookups: false })
  query!: string;

  @Field.JSON({ default: () => ({}), required: false, lookups: false })
  variables!: Record<string, string>;

  /** Only syntax is checked (an unknown field is found when the query runs); variables follow the document. */
  static clean(values: Values): void {
    if (typeof values.query !== 'string') return;
    const message = graphqlSyntaxError(values.query);
    if (message !== null) throw new ValidationError({ query: [message] });
    values.variables = graphqlVariableDefaults(values.query);
  }
}
