import { Rule } from '../../rule';
import { duplicateObject } from './duplicate-object';
import { objectWithoutType } from './object-without-type';

/** Rules about the input itself: nothing in it is dropped or overridden without a word. */
export const INPUT_RULES: readonly Rule[] = [duplicateObject, objectWithoutType];
