package main

import (
	"encoding/json"
	"io"
)

// writeJSON writes v as indented JSON followed by a newline. Map keys are
// sorted by encoding/json, so equal values give equal bytes.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}
