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
    ['{{ "12" | int + 1 }}', '13'],
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
    '{% for t in obj.tags %}{{ t }}',
    '{% macro m() %}x',
    '{% if obj.name %}unclosed',
    '{{ unclosed',
    '{{ "a" < 1 }}',
    '{{ obj.name - 1 }}',
    '{{ 1 / 0 }}',
    '{% unknowntag %}',
    '{{ m(1) }}{% macro m() %}{% endmacro %}',
  ])('%s raises a TemplateError', (source) => {
    expect(() => render(source)).toThrow(TemplateError);
  });

  test('only own data is reachable: no prototypes, constructors or methods', () => {
    expect(render('{{ obj.constructor }}{{ obj.toString }}{{ obj.name.length }}{{ obj.list.push }}')).toBe('');
    expect(() => render('{{ obj.__proto__ }}')).toThrow(TemplateError);
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

describe('loops', () => {
  const sites = [
    { name: 'ams01', status: { value: 'active', label: 'Active' }, asn: 65001, tenant: { display: 'Acme', name: 'acme' } },
    { name: 'lon01', status: { value: 'planned', label: 'Planned' }, asn: null, tenant: null },
    { name: 'par01', status: { value: 'active', label: 'Active' }, asn: 65003, tenant: { display: 'Beta', name: 'beta' } },
  ];
  const run = (source: string) => renderTemplate(source, { queryset: sites, obj });

  test.each([
    ['{% for s in queryset %}{{ s.name }}{% endfor %}', 'ams01lon01par01'],
    ['{% for s in queryset %}{{ loop.index }}{{ loop.index0 }}{{ loop.length }}{% endfor %}', '103213323'],
    ['{% for s in queryset %}{% if loop.first %}[{% endif %}{{ s.name }}{% if loop.last %}]{% else %},{% endif %}{% endfor %}', '[ams01,lon01,par01]'],
    ['{% for s in queryset %}{{ loop.revindex }}{{ loop.revindex0 }}{% endfor %}', '322110'],
    ['{% for s in [] %}x{% else %}none{% endfor %}', 'none'],
    ['{% for s in queryset if s.asn %}{{ s.name }}{% else %}none{% endfor %}', 'ams01par01'],
    ['{% for s in queryset if s.name == "x" %}{{ s.name }}{% else %}none{% endfor %}', 'none'],
    ['{% for a in [1, 2] %}{% for b in ["x", "y"] %}{{ a }}{{ b }}{{ loop.index }} {% endfor %}{% endfor %}', '1x1 1y2 2x1 2y2 '],
    ['{% for k, v in obj.cf.items() %}{{ k }}={{ v }};{% endfor %}', 'owner=noc;cost=12;'],
    ['{% for k, v in obj.cf | dictsort %}{{ k }}={{ v }};{% endfor %}', 'cost=12;owner=noc;'],
    ['{% for i in range(3) %}{{ i }}{% endfor %}|{% for i in range(1, 7, 2) %}{{ i }}{% endfor %}', '012|135'],
    ['{% for c in "abc" %}{{ c | upper }}{% endfor %}', 'ABC'],
    ['{% for g, items in queryset | groupby("status.value") %}{{ g }}:{{ items | map(attribute="name") | join("+") }} {% endfor %}', 'active:ams01+par01 planned:lon01 '],
    ['{% for row in queryset | batch(2) %}{{ row | map(attribute="name") | join(",") }};{% endfor %}', 'ams01,lon01;par01;'],
  ])('%s', (source, expected) => {
    expect(run(source)).toBe(expected);
  });

  test('a CSV export of the classic form', () => {
    const source = [
      'name,status,tenant,asn',
      '{% for s in queryset -%}',
      '{{ s.name }},{{ s.status.value }},{{ s.tenant.name if s.tenant else "" }},{{ s.asn | default("", true) }}',
      '{% endfor %}',
    ].join('\n');
    expect(run(source)).toBe('name,status,tenant,asn\nams01,active,acme,65001\nlon01,planned,,\npar01,active,beta,65003\n');
  });

  test('a YAML-like export with set, macros and indent', () => {
    const source = [
      '{%- macro entry(s, indent_by=2) -%}',
      '- name: {{ s.name }}',
      '{{ ("status: " ~ s.status.value) | indent(indent_by, true) }}',
      '{%- endmacro -%}',
      '{% set active = queryset | selectattr("status.value", "equalto", "active") | list -%}',
      'sites:  # {{ active | length }} active',
      '{% for s in active %}{{ entry(s) }}',
      '{% endfor %}',
    ].join('\n');
    expect(run(source)).toBe('sites:  # 2 active\n- name: ams01\n  status: active\n- name: par01\n  status: active\n');
  });
});

describe('set, macros and namespaces', () => {
  test.each([
    ['{% set x = obj.name | lower %}{{ x }}-{{ x }}', 'ams01-ams01'],
    ['{% set x %}block {{ obj.slug }}{% endset %}[{{ x }}]', '[block ams01]'],
    ['{% set x = 1 %}{% for t in obj.tags %}{% set x = 2 %}{% endfor %}{{ x }}', '1'],
    ['{% set ns = namespace(total=0) %}{% for t in obj.tags %}{% set ns.total = ns.total + 1 %}{% endfor %}{{ ns.total }}', '2'],
    ['{% macro greet(who, greeting="hello") %}{{ greeting }} {{ who }}{% endmacro %}{{ greet("a") }}/{{ greet("b", "hi") }}/{{ greet(greeting="yo", who="c") }}', 'hello a/hi b/yo c'],
    ['{% macro fact(n) %}{% if n <= 1 %}1{% else %}{{ n * (fact(n - 1) | int) }}{% endif %}{% endmacro %}{{ fact(5) }}', '120'],
    ['{% macro m(a) %}{{ a }}{{ obj.slug }}{% endmacro %}{{ m(1) | upper }}', '1AMS01'],
  ])('%s', (source, expected) => {
    expect(render(source)).toBe(expected);
  });
});

describe('more filters, tests and operators', () => {
  const data = { obj, nums: [3, 1, 2, 3], words: ['b', 'A', 'c', 'a'], text: 'Hello World', price: 3.14159, neg: -4 };
  test.each([
    ['{{ nums | sort }} {{ nums | sort(reverse=true) }} {{ words | sort }} {{ words | sort(case_sensitive=true) }}', "[1, 2, 3, 3] [3, 3, 2, 1] ['A', 'a', 'b', 'c'] ['A', 'a', 'b', 'c']"],
    ['{{ obj.tags | sort(attribute="name", reverse=true) | map(attribute="name") | join }}', 'silvergold'],
    ['{{ nums | unique | list }} {{ words | unique | list }}', "[3, 1, 2] ['b', 'A', 'c']"],
    ['{{ nums | select("odd") | list }} {{ nums | reject("odd") | list }}', '[3, 1, 3] [2]'],
    ['{{ obj.tags | rejectattr("name", "equalto", "gold") | map(attribute="name") | first }}', 'silver'],
    ['{{ [{"a": none}, {"a": 1}, {}] | selectattr("a", "none") | list | length }}', '1'],
    ['{{ [{"a": none}, {"a": 1}, {}] | selectattr("a", "defined") | list | length }}', '2'],
    ['{{ obj.tags | map(attribute="missing", default="-") | join }}', '--'],
    ['{{ ["a", "b"] | map("upper") | list }}', "['A', 'B']"],
    ['{{ "12.5" | float }} {{ 12 | string }}{{ 1 }} {{ price | round }} {{ price | round(2) }} {{ price | round(1, "floor") }}', '12.5 121 3 3.14 3.1'],
    ['{{ neg | abs }} {{ "ab" | center(6) }}| {{ text | truncate(8, true, leeway=0) }} {{ text | truncate(8) }}', '4   ab  | Hello... Hello World'],
    ['{{ "a-b-c" | replace("-", "+", 1) }} {{ text | wordcount }} {{ nums | sum }} {{ nums | min }} {{ nums | max }}', 'a+b-c 2 9 1 3'],
    ['{{ "x\ny\n\nz" | indent }}|{{ "x\ny" | indent(2, true) }}', 'x\n    y\n\n    z|  x\n  y'],
    ['{{ obj.tags | map(attribute="name") | list | tojson }} {{ "<a>" | tojson }}', '["gold","silver"] "\\u003ca\\u003e"'],
    ['{{ "abc" | list }} {{ nums | reverse | list }} {{ "abc" | reverse }} {{ nums | first }} {{ nums | last }} {{ "xy" | first }}', "['a', 'b', 'c'] [3, 2, 1, 3] cba 3 3 x"],
    ['{{ "%s-%03d" | format("a", 7) }} {{ "%.2f" | format(price) }}', 'a-7 3.14'],
    ['{{ "a" ~ 1 ~ none ~ true }} {{ 1 + 2 * 3 }} {{ (1 + 2) * 3 }} {{ 7 % 3 }} {{ 7 // 2 }} {{ 2 ** 10 }} {{ -3 + 1 }}', 'a1NoneTrue 7 9 1 3 1024 -2'],
    ['{{ "ab" + "cd" }} {{ [1] + [2] }} {{ "-" * 3 }}', 'abcd [1, 2] ---'],
    ['{{ "gold" in obj.tags | map(attribute="name") | list }} {{ "MS" in obj.name }} {{ "owner" in obj.cf }} {{ 5 not in nums }}', 'True True True True'],
    ['{{ obj.missing is defined }} {{ obj.name is defined }} {{ obj.missing is undefined }} {{ obj.tenant is none }} {{ obj.tenant is not none }}', 'False True True True False'],
    ['{{ 3 is odd }} {{ 4 is even }} {{ 9 is divisibleby 3 }} {{ obj.name is string }} {{ obj.asn is number }} {{ obj.cf is mapping }} {{ "a" is in "abc" }}', 'True True True True True True True'],
    ['{{ 1 < 2 < 3 }} {{ 3 > 2 > 2 }} {{ obj.name == "AMS01" and obj.asn >= 65000 }} {{ none or "x" }} {{ "a" if false }}|', 'True False True x |'],
    ['{{ obj.tags[0:1] | map(attribute="name") | list }} {{ obj.name[:3] }} {{ obj.name[-2:] }}', "['gold'] AMS 01"],
    ['{{ obj.cf.get("owner") }} {{ obj.cf.get("nope", "dflt") }} {{ obj.cf.keys() | list }} {{ "a,b".split(",") }} {{ "Ab".lower() }} {{ " x ".strip() }}', "noc dflt ['owner', 'cost'] ['a', 'b'] ab x"],
    ['{{ "a,b;c" | replace(";", ",") }} {{ "  x " | trim }} {{ "xxhixx" | trim("x") }} {{ "hELLO wORLD" | capitalize }} {{ "<b>" | e }}', 'a,b,c x hi Hello world &lt;b&gt;'],
    ['{{ {"a": 1, "b": [1, 2]} }} {{ {"a": {"b": 2}}.a.b }} {{ (1, 2) }}', "{'a': 1, 'b': [1, 2]} 2 [1, 2]"],
  ])('%s', (source, expected) => {
    expect(renderTemplate(source, data)).toBe(expected);
  });
});

describe('whitespace control, raw blocks and comments', () => {
  test.each([
    ['a  {{- "b" -}}  c', 'abc'],
    ['{% for i in [1, 2] -%}\n  {{ i }}\n{%- endfor %}', '12'],
    ['{% for i in [1, 2] %}\n{{ i }}{% endfor %}', '\n1\n2'],
    ['x {#- a comment with {{ tags }} and {% tags %} -#} y', 'xy'],
    ['{# multi\nline #}z', 'z'],
    ['{% raw %}{{ not rendered }} {% if %}{% endraw %}', '{{ not rendered }} {% if %}'],
    ['a {%- raw -%} {{ x }} {%- endraw -%} b', 'a{{ x }}b'],
    ['keeps one newline less\n', 'keeps one newline less'],
    ['two newlines\n\n', 'two newlines\n'],
    ['{{ "}}" }}{{ {"a": {"b": "%}"}}.a.b }}', '}}%}'],
  ])('%s', (source, expected) => {
    expect(render(source)).toBe(expected);
  });
});

describe('attacks are refused', () => {
  test.each([
    ["{{ ''.__class__ }}", 'not allowed'],
    ["{{ ''.__class__.__mro__[1].__subclasses__() }}", 'not allowed'],
    ["{{ obj['__proto__'] }}", 'not allowed'],
    ["{{ x.constructor.constructor('return process')() }}", 'undefined'],
    ["{{ obj.name.constructor.constructor('return process')() }}", 'undefined'],
    ["{{ obj.tags.map(obj) }}", "'map' is undefined"],
    ["{{ obj.name.toString() }}", "'toString' is undefined"],
    ["{{ obj.name() }}", 'not callable'],
    ["{{ obj.cf.items.call(obj) }}", 'undefined'],
    ["{{ process.mainModule }}", 'undefined'],
    ["{% for i in [1] %}{{ loop.__class__ }}{% endfor %}", 'not allowed'],
    ["{% set obj.name = 'x' %}", 'not a namespace'],
    ["{% set ns = namespace() %}{% set ns.__proto__ = 1 %}", 'not allowed'],
    ["{% include '/etc/passwd' %}", "'include' tag is not supported"],
    ["{% import 'x' as y %}", 'not supported'],
    ["{% extends 'base.html' %}", 'not supported'],
    ['{{ range(10**9) }}', 'at most'],
    ['{{ range(10**400) }}', 'number too large'],
    ['{{ "x" * 100000000 }}', 'too large'],
    ['{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}', 'loop iterations'],
    ['{% for i in range(60000) %}{{ "0123456789" }}{% endfor %}', 'output larger'],
    ['{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}', 'nested deeper'],
    ['{{ ' + '['.repeat(200) + ']'.repeat(200) + ' }}', 'too deep'],
    ['{{ ' + '['.repeat(50000) + ']'.repeat(50000) + ' }}', 'too complex'],
  ])('%s', (source, message) => {
    expect(() => renderTemplate(source, { obj, x: 'str' })).toThrow(message ? new RegExp(message) : TemplateError);
    expect(() => renderTemplate(source, { obj, x: 'str' })).toThrow(TemplateError);
  });

  test('the data and the prototypes are left untouched', () => {
    const data = { obj: { list: [1] } };
    renderTemplate('{% set list = obj.list + [2] %}{% set d = dict(a=1) %}{{ {"__x": 1} if false }}', data);
    expect(data).toEqual({ obj: { list: [1] } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('limits can be raised for large exports', () => {
    const source = '{% for i in range(20000) %}{{ "0123456789" }}{% endfor %}';
    expect(() => renderTemplate(source, {})).toThrow(TemplateError);
    expect(renderTemplate(source, {}, { maxOutput: 1_000_000 })).toHaveLength(200_000);
  });
});
