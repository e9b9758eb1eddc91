/** A primary key value: a UUID string, or an integer for the few integer-keyed models. */
export type Id = string | number;
