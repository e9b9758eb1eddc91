import { defineActions, Template, TemplateError, ValidationError, type ActionRequest, type JsonObject } from '../../framework';
import { ExportTemplate } from './export-template';

/** Objects one rendering may read, and the size of what it may produce. */
const MAX_OBJECTS = 50_000;
const MAX_OUTPUT = 32 * 1024 * 1024;
const MAX_ITERATIONS = 5_000_000;

function renderError(name: string, message: string): ValidationError {
  return ValidationError.field('template_code', `There was an error rendering the selected export template (${name}): ${message}`);
}

/**
 * `GET /api/extras/export-templates/<id>/render/?<filters>`: the template rendered over the list of
 * its content type, as Nautobot's `?export=<name>` on a web list page renders it. `queryset` is
 * the list endpoint's answer for the same query parameters (filters, the caller's view
 * permissions) across all pages, each object in its full REST representation, so templates
 * use the API's attribute names. The answer is the text with the template's `mime_type`
 * (`text/plain` by default) as an attachment named `nautobot_<model plural>[.<file_extension>]`.
 * A template that fails to parse or render is a 400, never a 500.
 */
async function render(req: ActionRequest) {
  const record = await req.object(req.ctx.db.reader, await req.restrict(ExportTemplate, 'view'));
  const name = String(record.name);
  const model = req.ctx.registry.get(String(record.content_type));
  if (!model) throw ValidationError.field('content_type', `Invalid content type: ${String(record.content_type)}`);
  let template: Template;
  try {
    template = new Template(String(record.template_code), { maxOutput: MAX_OUTPUT, maxIterations: MAX_ITERATIONS });
  } catch (error) {
    if (error instanceof TemplateError) throw renderError(name, error.message);
    throw error;
  }
  const queryset = (await req.listAll(model, MAX_OBJECTS)) as JsonObject[];
  let text: string;
  try {
    text = template.render({ queryset }).replace(/\r\n/g, '\n');
  } catch (error) {
    if (error instanceof TemplateError) throw renderError(name, error.message);
    throw error;
  }
  const mime = String(record.mime_type ?? '').trim() || 'text/plain';
  const contentType = /charset=/i.test(mime) ? mime : `${mime}; charset=utf-8`;
  const extension = String(record.file_extension ?? '').replace(/^\.+/, '');
  const filename = `nautobot_${model.verboseNamePlural}${extension ? `.${extension}` : ''}`;
  return {
    status: 200,
    raw: { contentType, text },
    headers: { 'Content-Disposition': `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"` },
  };
}

export const exportTemplateActions = defineActions(ExportTemplate, {
  render: {
    detail: true,
    GET: {
      action: 'view',
      handler: render,
      doc: {
        description:
          'Renders the export template over the objects of its content type: `queryset` is the list that content type\'s endpoint answers for the same query parameters (its filters; every page; the caller\'s view permissions), each object in its full representation. Answers the text with the template\'s `mime_type` (default `text/plain`) as an attachment; a template error is a 400.',
      },
    },
  },
});
