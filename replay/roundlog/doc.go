// Package roundlog reads and writes round logs: the records of played
// rounds ([round.Round]) as Parquet datasets and as JSON Lines
// (docs/log-format.md is the normative specification).
//
// A Parquet dataset is a directory of parts. A part is one file per table,
// part-NNNNN.<table>.parquet: rounds (one row per round), and the child
// tables boxes, seats, actions and pots (rows joined to their round by
// round_id and round_row, in round order). Every file carries its schema
// version in the key-value metadata; a reader rejects a major version it
// does not know ([ErrUnsupportedVersion]).
//
// # Writing
//
// [NewParquetWriter] writes a dataset with bounded memory: it holds two row
// groups of rounds (Options.RowGroupRounds) and their child rows, one
// filled while the other is encoded, flushes
// every table at the same round boundary, and starts a new part every
// Options.FileRounds rounds or Options.FileRowGroups row groups, whichever
// comes first (a reader holds the footer of the part it reads). The CreatedBy string is fixed, so the same
// rounds and options give byte-identical files. [NewJSONLWriter] writes the
// JSON Lines form.
//
// # Reading
//
// [Open] lists the units of a dataset ([Unit]: one row group of a part, or
// one JSON Lines file) in a fixed order. [Dataset.ReadUnit] decodes one
// unit and calls back for every round with its file, row group and row;
// units may be read concurrently and merged in unit order, which gives the
// same result for any number of workers. [Dataset.ReadUnitStream] hands
// over the damage as it is found, in input order among the rounds.
// [Dataset.Scan] reads everything in order.
//
// Memory does not follow the input's size: a row group of more than 16,384
// rounds (a child table's, of more than 65,536 rows) is read in slices, its
// columns' pages decoded as the slice reaches them; a JSON Lines file is
// read a line at a time, and a line of more than 1 MiB, a text value of
// more than 4,096 bytes or a round of more than 65,536 rows in one child
// table is damage (limits.go, docs/log-format.md section 6).
//
// The callback's [Record] and everything it points to, strings included,
// are the reader's reused buffers: a steady read allocates almost nothing
// per round, and a string from a Record may hold other text once the
// callback has returned. Copy (strings.Clone) what must outlive the call.
//
// Damaged input never stops the read: a file that cannot be opened, a
// corrupt row group, a null in a required column, an invalid card, a
// negative or overflowing amount is reported as a [DamageError] naming the
// file, row group, row and column, and the rounds of the undamaged row
// groups (and the other rows of the row group, for a damaged value) are
// still read.
package roundlog
