package finding

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the code table of docs/findings.md")

const (
	docPath  = "../../docs/findings.md"
	docBegin = "<!-- codes:begin (generated from replay/finding/catalogue.go: go test ./replay/finding -update) -->\n"
	docEnd   = "<!-- codes:end -->\n"
)

// catalogueMarkdown renders the catalogue as the code section of
// docs/findings.md.
func catalogueMarkdown() string {
	var b strings.Builder
	b.WriteString(docBegin)
	for _, in := range Catalogue() {
		fmt.Fprintf(&b, "\n### %s\n\nSeverity: **%s**. %s\n\nExample: field `%s`, expected `%s`, actual `%s`",
			in.Code, in.Severity, in.Meaning, in.Field, in.Expected, in.Actual)
		if d := ExampleDetail(in.Code); d != "" {
			fmt.Fprintf(&b, ", detail `%s`", d)
		}
		b.WriteString(".\n")
		if IsMoney(in.Code) {
			b.WriteString("\nA money finding: it carries `expected_amount`, `actual_amount` and `difference` ([Amounts](#amounts)).\n")
		}
	}
	b.WriteString("\n" + docEnd)
	return b.String()
}

// TestFindingsDoc keeps docs/findings.md in step with the catalogue.
func TestFindingsDoc(t *testing.T) {
	doc, err := os.ReadFile(docPath)
	require.NoError(t, err)
	s := string(doc)
	i, j := strings.Index(s, docBegin), strings.Index(s, docEnd)
	require.True(t, i >= 0 && j > i, "docs/findings.md lacks the generated section markers")
	want := catalogueMarkdown()
	if *update {
		s = s[:i] + want + s[j+len(docEnd):]
		require.NoError(t, os.WriteFile(docPath, []byte(s), 0o644))
		return
	}
	assert.Equal(t, want, s[i:j+len(docEnd)], "run: go test ./replay/finding -update")
}

func TestCatalogue(t *testing.T) {
	seen := map[Code]bool{}
	for _, in := range Catalogue() {
		assert.False(t, seen[in.Code], "duplicate %s", in.Code)
		seen[in.Code] = true
		assert.Contains(t, []Severity{Critical, Major, Minor}, in.Severity, in.Code)
		assert.NotEmpty(t, in.Meaning, in.Code)
		assert.NotEqual(t, in.Expected, in.Actual, in.Code)
		assert.Equal(t, in.Severity, SeverityOf(in.Code))
	}
	// Every code constant of this package is catalogued.
	var src []byte
	for _, name := range []string{"finding.go", "receipt.go"} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		src = append(src, b...)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if k := strings.Index(line, "Code = \""); k >= 0 {
			code := Code(strings.SplitN(line[k+len("Code = \""):], "\"", 2)[0])
			assert.True(t, seen[code], "%s is not in the catalogue", code)
		}
	}
	assert.Equal(t, Major, SeverityOf("NO_SUCH_CODE"))
}

// A money finding's expected and actual are the values alone, as its
// amounts are (the prose is in the detail), except where the field is a
// pot's winners or shares, whose values are lists.
func TestCatalogueMoneyValues(t *testing.T) {
	for _, in := range Catalogue() {
		if !IsMoney(in.Code) || in.Code == DHPotWrongWinner || in.Code == DHOddChipWrong {
			continue
		}
		for _, v := range []string{in.Expected, in.Actual} {
			_, err := strconv.ParseInt(v, 10, 64)
			assert.NoError(t, err, "%s: %q is not an amount", in.Code, v)
		}
	}
}

func TestCompareOrder(t *testing.T) {
	fs := []Finding{
		{File: "b", Row: 0, Code: "A"},
		{File: "a", Row: 2, Code: "A"},
		{File: "a", Row: 1, Code: "B"},
		{File: "a", Row: 1, Code: "A", Field: "y"},
		{File: "a", Row: 1, Code: "A", Field: "x"},
	}
	for i := 1; i < len(fs); i++ {
		assert.Positive(t, Compare(fs[i-1], fs[i]), "%d", i)
		assert.Negative(t, Compare(fs[i], fs[i-1]), "%d", i)
	}
	assert.Zero(t, Compare(fs[0], fs[0]))
}
