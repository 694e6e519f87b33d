package markup

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// converter is Forgejo's goldmark set-up (modules/markup/markdown's
// SpecializedMarkdown) without syntax highlighting and math: GitHub's
// extensions, attributes (an author's {#id}), heading ids; raw HTML is passed through to the
// sanitiser, which decides what stays.
var converter = goldmark.New(
	goldmark.WithExtensions(
		extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
		extension.Strikethrough,
		extension.TaskList,
		extension.DefinitionList,
		extension.Footnote,
		extension.Linkify,
	),
	goldmark.WithParserOptions(
		parser.WithAttribute(),
		parser.WithASTTransformers(util.Prioritized(headingIDs{}, 100)),
	),
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

// headingIDs gives every heading an id prefixed `user-content-`, as
// Forgejo's prefixedIDs (so that a document's anchors never collide with
// the page's own ids): the heading's text, lower-cased, spaces as `-`,
// other punctuation dropped, a repeated one suffixed `-1`, `-2`, ….
type headingIDs struct{}

// Transform implements parser.ASTTransformer.
func (headingIDs) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	seen := map[string]int{}
	src := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		id := slug(plainText(h, src))
		if v, ok := h.AttributeString("id"); ok {
			if b, ok := v.([]byte); ok && len(b) > 0 {
				id = string(b) // an id the author wrote ({#id})
			}
		}
		if n := seen[id]; n > 0 {
			seen[id] = n + 1
			id += "-" + strconv.Itoa(n)
		} else {
			seen[id] = 1
		}
		h.SetAttributeString("id", []byte("user-content-"+id))
		return ast.WalkSkipChildren, nil
	})
}

// plainText is the text of n's descendants.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
		case *ast.String:
			b.Write(t.Value)
		case *ast.CodeSpan:
			for g := t.FirstChild(); g != nil; g = g.NextSibling() {
				if tx, ok := g.(*ast.Text); ok {
					b.Write(tx.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slug is Forgejo's CleanValue: letters, digits, `-` and `_` kept
// (lower-cased), spaces as `-`, everything else dropped.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r) || r == '-' || r == '_':
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsSpace(r):
			b.WriteByte('-')
		}
	}
	return b.String()
}
