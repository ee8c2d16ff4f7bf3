// Package roundlog reads and writes round logs: the records of played
// rounds ([round.Round]) as Parquet datasets and as JSON Lines
// (docs/log-format.md is the normative specification).
//
// A Parquet dataset is a directory with one folder per table, so that any
// SQL engine reads a table by its folder (DIR/rounds/*.parquet). A part
// is one file in each table's folder, DIR/<table>/part-NNNNN.parquet
// ([TablePath]): rounds (one row per round), and the child tables boxes,
// seats, actions and pots (rows joined to their round by round_id and
// round_row, in round order). The JSON Lines form of a part is
// DIR/rounds/part-NNNNN.jsonl. Every file carries its schema version in
// the key-value metadata; a reader rejects a major version it does not know
// ([ErrUnsupportedVersion]). The old flat layout (PREFIX.rounds.parquet
// beside PREFIX.boxes.parquet, ...) is still read, with a warning.
//
// The dataset's manifest (package manifest, DIR/manifest.json) lists every
// part's files with their SHA-256; the writers describe what they wrote in
// its form ([ParquetWriter.Parts]).
//
// # Writing
//
// [NewParquetWriter] writes a dataset with bounded memory: it holds two row
// groups of rounds (Options.RowGroupRounds) and their child rows, one
// filled while the other is encoded, flushes
// every table at the same round boundary, and starts a new part every
// Options.FileRounds rounds or Options.FileRowGroups row groups, whichever
// comes first (a reader holds the footer of the part it reads). The CreatedBy string is fixed, so the same
// rounds and options give byte-identical files. Every file is written under
// a temporary name and renamed once whole (package atomicfile).
// [NewJSONLWriter] writes the JSON Lines form, [NewJSONLDatasetWriter] a
// dataset in it.
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
// Only regular files are read (a named pipe, a device, a directory or a
// dangling link named like a part is damage, never a hang). Damaged input
// never stops the read: a file that cannot be opened, a corrupt row group, a null in a required column, an invalid card, a
// negative or overflowing amount is reported as a [DamageError] naming the
// file, row group, row and column, and the rounds of the undamaged row
// groups (and the other rows of the row group, for a damaged value) are
// still read.
package roundlog
