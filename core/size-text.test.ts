import { describe, expect, it } from 'vitest';
import { MAX_SIZE_TEXT, parseSizeText, sizeInFieldUnits, sizeTextProblem } from './size-text';
import { cpuMs } from '../testing/cpu-time';

describe('parseSizeText', () => {
  it.each([
    ['14', 14, null],
    ['12.5', 12.5, null],
    ['12,5', 12.5, null],
    ['.5 m', 0.5, 'm'],
    ['14 m', 14, 'm'],
    ['14m', 14, 'm'],
    ['14 M', 14, 'm'],
    ['14 metres', 14, 'm'],
    ['14 meters', 14, 'm'],
    ['55cm', 55, 'cm'],
    ['55 centimetres', 55, 'cm'],
    ['550 mm', 550, 'mm'],
    ['40 ft', 40, 'ft'],
    ['40ft.', 40, 'ft'],
    ['40 feet', 40, 'ft'],
    ["40'", 40, 'ft'],
    ['40\u2032', 40, 'ft'],
    ['16 in', 16, 'in'],
    ['16 inches', 16, 'in'],
    ['16"', 16, 'in'],
    ["16''", 16, 'in'],
    ['16\u201D', 16, 'in'],
    ['  16   in  ', 16, 'in'],
  ])('reads %j as %s %s', (text, value, unit) => {
    expect(parseSizeText(text)).toEqual({ kind: 'size', value, unit });
  });

  it('reads feet and inches together as feet', () => {
    expect(parseSizeText(`5'6"`)).toEqual({ kind: 'size', value: 5.5, unit: 'ft' });
    expect(parseSizeText('5 ft 6 in')).toEqual({ kind: 'size', value: 5.5, unit: 'ft' });
    expect(parseSizeText('5 feet 6')).toEqual({ kind: 'size', value: 5.5, unit: 'ft' });
    // Twelve inches or more is not how anyone writes feet and inches.
    expect(parseSizeText(`5'14"`)).toEqual({ kind: 'invalid' });
  });

  it('is empty for nothing but spaces', () => {
    expect(parseSizeText('')).toEqual({ kind: 'empty' });
    expect(parseSizeText('   ')).toEqual({ kind: 'empty' });
  });

  it.each([
    'tall',
    '14 parsecs',
    '14 m 3',
    '14 m ft',
    '-3 m',
    '+3',
    '1e5',
    '1e5 m',
    '0x10',
    'Infinity',
    'NaN',
    '12..5',
    '1.2.3',
    '12 ½',
    'm 14',
    '14 <script>',
    '14\u0000m',
    '9'.repeat(40),
    '123456 m',
    '14 m'.padEnd(MAX_SIZE_TEXT + 1, ' ') + 'x',
    `${'1 '.repeat(5000)}m`,
    "'".repeat(10_000),
  ])('refuses %j', (text) => {
    expect(parseSizeText(text)).toEqual({ kind: 'invalid' });
  });

  it('answers long hostile text at once', () => {
    // CPU time, not the wall clock (testing/cpu-time.ts).
    const cpu = cpuMs(() => {
      for (let i = 0; i < 100; i++) parseSizeText(`${'1'.repeat(30)}${' '.repeat(1)}${'m'.repeat(1)}`.repeat(100));
    });
    expect(cpu).toBeLessThan(200);
  });
});

describe('sizeInFieldUnits', () => {
  it('uses the switched unit when none is typed', () => {
    expect(sizeInFieldUnits('14', 'height', 'ft')).toEqual({ value: 14, unit: 'ft', typedUnit: null });
    expect(sizeInFieldUnits('55', 'diameter', 'cm')).toEqual({ value: 55, unit: 'cm', typedUnit: null });
  });

  it("keeps one of the field's own units as typed, whatever the switch says", () => {
    expect(sizeInFieldUnits('14 m', 'height', 'ft')).toEqual({ value: 14, unit: 'm', typedUnit: 'm' });
    expect(sizeInFieldUnits('40 ft', 'height', 'm')).toEqual({ value: 40, unit: 'ft', typedUnit: 'ft' });
    expect(sizeInFieldUnits('55cm', 'diameter', 'in')).toEqual({ value: 55, unit: 'cm', typedUnit: 'cm' });
    expect(sizeInFieldUnits('16"', 'diameter', 'cm')).toEqual({ value: 16, unit: 'in', typedUnit: 'in' });
    expect(sizeInFieldUnits(`5'7"`, 'height', 'm')).toEqual({ value: 5.583, unit: 'ft', typedUnit: 'ft' });
  });

  it("converts another length into the field's switched unit, to one decimal", () => {
    expect(sizeInFieldUnits('1.2 m', 'diameter', 'cm')).toEqual({ value: 120, unit: 'cm', typedUnit: 'm' });
    expect(sizeInFieldUnits('1.2 m', 'diameter', 'in')).toEqual({ value: 47.2, unit: 'in', typedUnit: 'm' });
    expect(sizeInFieldUnits('550 mm', 'diameter', 'cm')).toEqual({ value: 55, unit: 'cm', typedUnit: 'mm' });
    expect(sizeInFieldUnits('1400 cm', 'height', 'm')).toEqual({ value: 14, unit: 'm', typedUnit: 'cm' });
    expect(sizeInFieldUnits('480 in', 'height', 'ft')).toEqual({ value: 40, unit: 'ft', typedUnit: 'in' });
  });

  it('is undefined for an empty field and null for text that is not a size', () => {
    expect(sizeInFieldUnits(' ', 'height', 'm')).toBeUndefined();
    expect(sizeInFieldUnits('tall', 'height', 'm')).toBeNull();
  });

  it('says how to write a size', () => {
    expect(sizeTextProblem('height')).toBe('Enter a height like 12 m or 40 ft.');
    expect(sizeTextProblem('diameter')).toBe('Enter a trunk diameter like 55 cm or 22 in.');
  });
});
