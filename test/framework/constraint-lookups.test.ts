/**
 * The kept class-validator lookups answer as the library does, and a constraint declared after a
 * validation (a plugin's model loaded later) is applied from then on.
 */
import { MaxLength, MinLength, validateSync } from 'class-validator';
import { keepConstraintLookups } from '../../framework/serializer/constraint-lookups';

keepConstraintLookups();

class Named {
  @MaxLength(5)
  name = '';
}

function failures(obj: object): string[] {
  return validateSync(obj, { skipMissingProperties: true, forbidUnknownValues: false }).flatMap((e) => Object.keys(e.constraints ?? {}));
}

test('constraints found once are found again, for instances of subclasses too', () => {
  const long = Object.assign(new Named(), { name: 'much too long' });
  expect(failures(long)).toEqual(['maxLength']);
  expect(failures(long)).toEqual(['maxLength']);
  expect(failures(Object.assign(new Named(), { name: 'ok' }))).toEqual([]);
  class Sub extends Named {}
  expect(failures(Object.assign(new Sub(), { name: 'much too long' }))).toEqual(['maxLength']);
});

test('a constraint declared after validations is applied', () => {
  class Late {
    name = '';
  }
  const short = Object.assign(new Late(), { name: 'a' });
  expect(failures(short)).toEqual([]);
  MinLength(3)(Late.prototype, 'name');
  expect(failures(short)).toEqual(['minLength']);
});
