/**
 * The template engine of computed fields: the Jinja2 subset it renders, Python's printing rules,
 * and what a template cannot do (call code, reach outside the data, run without bound).
 */
import { renderTemplate, Template, TemplateError } from '../../framework';

const obj = {
  name: 'AMS01',
  slug: 'ams01',
  asn: 65000,
  site: { id: 'a1', display: 'Amsterdam 1', url: 'http://x/api/dcim/sites/a1/', name: 'ams01' },
  status: { value: 'active', label: 'Active' },
  tags: [{ id: 't1', display: 'gold', name: 'gold' }, { id: 't2', display: 'silver', name: 'silver' }],
  tenant: null,
  is_pool: false,
  list: ['a', 'b'],
  cf: { owner: 'noc', cost: 12 },
};
const render = (source: string) => renderTemplate(source, { obj });

describe('expressions', () => {
  test.each([
    ['{{ obj.name }}', 'AMS01'],
    ['{{obj.name}}/{{ obj.slug }}', 'AMS01/ams01'],
    ['{{ obj.site.name }}', 'ams01'],
    ['{{ obj.tags[1].name }} {{ obj.tags.0.name }} {{ obj["name"] }}', 'silver gold AMS01'],
    ['{{ obj.cf.owner }}-{{ obj.cf.cost }}', 'noc-12'],
    ['{{ "text" }} {{ 42 }} {{ true }} {{ none }}', 'text 42 True None'],
    ['{{ obj.missing }}|{{ obj.cf.missing }}', '|'],
    ['plain text only', 'plain text only'],
    ['{# a comment #}kept', 'kept'],
  ])('%s', (source, expected) => {
    expect(render(source)).toBe(expected);
  });

  test('values print as Python does; objects as their display, choices as their label', () => {
    expect(render('{{ obj.site }}|{{ obj.status }}|{{ obj.tenant }}|{{ obj.is_pool }}|{{ obj.list }}|{{ obj.tags }}')).toBe(
      "Amsterdam 1|Active|None|False|['a', 'b']|['gold', 'silver']",
    );
  });
});

describe('filters', () => {
  test.each([
    ['{{ obj.name | lower }}', 'ams01'],
    ['{{ obj.slug | upper }}', 'AMS01'],
    ['{{ "hello world" | title }} {{ "hELLO" | capitalize }}', 'Hello World Hello'],
    ['{{ "  x  " | trim }}', 'x'],
    ['{{ obj.tags | length }} {{ obj.name | length }} {{ obj.tags | count }}', '2 5 2'],
    ['{{ obj.missing | default("n/a") }} {{ obj.tenant | default("n/a") }} {{ obj.tenant | default("n/a", true) }}', 'n/a None n/a'],
    ['{{ obj.missing | d("x") }}', 'x'],
    ['{{ obj.list | join(", ") }}', 'a, b'],
    ['{{ obj.list | first }}{{ obj.list | last }}', 'ab'],
    ['{{ "12" | int + 0 }}', 'error'],
    ['{{ "12" | int }} {{ "x" | int }} {{ "x" | int(7) }}', '12 0 7'],
    ['{{ obj.name | replace("AMS", "LON") }}', 'LON01'],
    ['{{ "a long sentence here" | truncate(9) }}', 'a...'],
    ['{{ "<b>" | e }} {{ "<b>" | escape }} {{ "<b>" | safe }}', '&lt;b&gt; &lt;b&gt; <b>'],
    ['{{ obj.cf | tojson }}', '{"owner":"noc","cost":12}'],
    ['{{ obj.name | lower | replace("ams", "x") | upper }}', 'X01'],
  ])('%s', (source, expected) => {
    if (expected === 'error') expect(() => render(source)).toThrow(TemplateError);
    else expect(render(source)).toBe(expected);
  });
});

describe('conditions', () => {
  test.each([
    ['{% if obj.status.value == "active" %}up{% else %}down{% endif %}', 'up'],
    ['{% if obj.tenant %}t{% elif obj.asn > 64511 %}private{% else %}public{% endif %}', 'private'],
    ['{% if not obj.is_pool and obj.name != "x" %}yes{% endif %}', 'yes'],
    ['{% if obj.missing %}yes{% endif %}', ''],
    ['a {%- if true -%} b {%- endif -%} c', 'abc'],
    ['{% if obj.asn >= 65000 %}{% if obj.cf.owner %}{{ obj.cf.owner }}{% endif %}{% endif %}', 'noc'],
  ])('%s', (source, expected) => {
    expect(render(source)).toBe(expected);
  });
});

describe('errors and safety', () => {
  test.each([
    '{{ obj.missing.deeper }}',
    '{{ obj.name( ) }}',
    '{{ obj.name | nosuchfilter }}',
    '{% for t in obj.tags %}{{ t }}{% endfor %}',
    '{% if obj.name %}unclosed',
    '{{ unclosed',
    '{{ "a" < 1 }}',
    '{{ obj.name ~ "x" }}',
  ])('%s raises a TemplateError', (source) => {
    expect(() => render(source)).toThrow(TemplateError);
  });

  test('only own data is reachable: no prototypes, constructors or methods', () => {
    expect(render('{{ obj.constructor }}{{ obj.__proto__ }}{{ obj.toString }}{{ obj.name.length }}{{ obj.list.push }}')).toBe('');
    expect(() => render('{{ obj.constructor.constructor }}')).toThrow(TemplateError);
    expect(renderTemplate('{{ constructor }}{{ process }}{{ globalThis }}', {})).toBe('');
  });

  test('output is bounded', () => {
    const big = 'x'.repeat(70000);
    expect(() => renderTemplate('{{ v }}', { v: big })).toThrow(TemplateError);
  });

  test('a parsed template renders many contexts', () => {
    const t = new Template('{{ obj.name }}!');
    expect(['a', 'b'].map((name) => t.render({ obj: { name } }))).toEqual(['a!', 'b!']);
  });
});
