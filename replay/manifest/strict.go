package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// shape is what a JSON value of the manifest must look like: an object
// with fixed members, an object of any keys (currencies), an array, or a
// scalar.
type shape struct {
	members  map[string]*shape
	required []string
	keys     *shape // an object of any keys, each value of this shape
	elem     *shape // an array of this shape
}

var (
	scalar    = &shape{}
	fileShape = &shape{
		members:  map[string]*shape{"path": scalar, "table": scalar, "rows": scalar, "bytes": scalar, "sha256": scalar},
		required: []string{"path", "table", "rows", "bytes", "sha256"},
	}
	partShape = &shape{
		members: map[string]*shape{"name": scalar, "rounds": scalar, "first_round_id": scalar, "last_round_id": scalar,
			"min_time": scalar, "max_time": scalar, "files": {elem: fileShape}},
		required: []string{"name", "rounds", "first_round_id", "last_round_id", "min_time", "max_time", "files"},
	}
	manifestShape = &shape{
		members:  map[string]*shape{"format": scalar, "version": scalar, "currencies": {keys: scalar}, "parts": {elem: partShape}},
		required: []string{"format", "version", "parts"},
	}
)

// checkMembers walks the JSON of b: one object of the manifest's shape,
// every member name exact (encoding/json alone would match names in any
// case and keep the last of duplicate members, so two readers could read
// two manifests from the same signed bytes), then nothing but white space.
func checkMembers(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := walk(dec, manifestShape, "manifest"); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("malformed manifest: data after the object")
	}
	return nil
}

func walk(dec *json.Decoder, sh *shape, at string) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("malformed manifest at %s: %v", at, err)
	}
	d, isDelim := tok.(json.Delim)
	switch {
	case sh == scalar:
		if isDelim {
			return fmt.Errorf("malformed manifest: %s: want a string or a number", at)
		}
		return nil
	case sh.elem != nil:
		if !isDelim || d != '[' {
			return fmt.Errorf("malformed manifest: %s: want an array", at)
		}
		for i := 0; dec.More(); i++ {
			if err := walk(dec, sh.elem, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		_, err := dec.Token() // ]
		return err
	}
	if !isDelim || d != '{' {
		return fmt.Errorf("malformed manifest: %s: want an object", at)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("malformed manifest at %s: %v", at, err)
		}
		key, _ := tok.(string)
		if seen[key] {
			return fmt.Errorf("malformed manifest: %s: member %q twice", at, key)
		}
		seen[key] = true
		sub := sh.keys
		if sub == nil {
			if sub = sh.members[key]; sub == nil {
				return fmt.Errorf("malformed manifest: %s: unknown member %q", at, key)
			}
		}
		if err := walk(dec, sub, at+"."+key); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return fmt.Errorf("malformed manifest at %s: %v", at, err)
	}
	for _, k := range sh.required {
		if !seen[k] {
			return fmt.Errorf("malformed manifest: %s: member %q missing", at, k)
		}
	}
	return nil
}
