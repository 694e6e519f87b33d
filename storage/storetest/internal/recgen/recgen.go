// Package recgen generates storetest's recording wrappers (record_gen.go):
// for every domain store the conformance suite wraps, a Store wrapper whose
// transactions are wrapped, and a Tx wrapper each of whose methods records
// "pkg.Iface.Method" and delegates. The method sets are read from the
// domain packages with go/types, so a method added to a store interface is
// wrapped by `go generate ./storage/storetest` and then reported by the
// suite's Coverage subtest until a case calls it. storetest's
// TestRecordGenFresh regenerates the file in memory and fails when the
// checked-in one is stale.
package recgen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// File is the generated file, relative to storage/storetest.
const File = "record_gen.go"

const module = "github.com/hearthforge/hearth/"

// A Store is one domain store the suite wraps: Store's methods taking a
// func(Tx) get a recording Tx. Optional interfaces are kept by the
// wrappers when the wrapped value has them, and covered only then.
type Store struct {
	Path          string   // import path below the module
	Store, Tx     string   // the store and transaction interfaces
	StoreOptional []string // interfaces a Store value may also have
	TxOptional    []string // interfaces a Tx value may also have
	// Optional marks a store not every backend has (storetest's
	// BlobRefBackend): its Tx is covered only once the suite wrapped one.
	Optional bool
}

// Stores are the stores of storetest.Backend and its optional
// BlobRefBackend. A new domain store is added here and to Backend.
var Stores = []Store{
	{Path: "auth", Store: "Store", Tx: "Tx", StoreOptional: []string{"TokenFinder"}},
	{Path: "forge/repos", Store: "Store", Tx: "Tx"},
	{Path: "forge/orgs", Store: "Store", Tx: "Tx"},
	{Path: "issues", Store: "Store", Tx: "Tx", TxOptional: []string{"BlockReader"}},
	{Path: "forge/notify", Store: "Store", Tx: "Tx"},
	{Path: "forge/federation", Store: "Store", Tx: "Tx"},
	{Path: "auth/oauthapps", Store: "Store", Tx: "Tx"},
	{Path: "forge/feeds", Store: "Store", Tx: "Tx"},
	{Path: "forge/actions", Store: "Store", Tx: "Tx"},
	{Path: "forge/hooks", Store: "Store", Tx: "Tx"},
	{Path: "forge/lfs", Store: "Store", Tx: "Tx"},
	{Path: "forge/packages", Store: "Store", Tx: "Tx"},
	{Path: "forge/actions/artifacts", Store: "Store", Tx: "Tx"},
	{Path: "quota", Store: "Store", Tx: "Tx"},
	{Path: "mirror", Store: "Store", Tx: "Tx"},
	{Path: "forge/gpgkeys", Store: "Store", Tx: "Tx"},
	{Path: "forge/sshkeys", Store: "Store", Tx: "Tx"},
	{Path: "storage/blob", Store: "RefStore", Tx: "RefTx", Optional: true},
}

// Generate returns the contents of record_gen.go, loading the domain
// packages with the go command from dir (any directory of the module).
func Generate(dir string) ([]byte, error) {
	paths := make([]string, len(Stores))
	for i, s := range Stores {
		paths[i] = module + s.Path
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: dir}, paths...)
	if err != nil {
		return nil, err
	}
	byPath := map[string]*types.Package{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("recgen: loading %s: %v", p.PkgPath, p.Errors[0])
		}
		byPath[p.PkgPath] = p.Types
	}
	g := &gen{imports: map[string]string{"context": "context", "reflect": "reflect"}}
	for _, s := range Stores {
		pkg := byPath[module+s.Path]
		if pkg == nil {
			return nil, fmt.Errorf("recgen: %s not loaded", s.Path)
		}
		if err := g.store(pkg, s); err != nil {
			return nil, err
		}
	}
	return g.file()
}

type gen struct {
	imports  map[string]string // package name → path
	body     bytes.Buffer
	required []string // the interfaces every backend's suite must cover
	err      error
}

// qualify names a package by its name, remembering the import; two
// packages of one name would need aliases, which nothing needs yet.
func (g *gen) qualify(p *types.Package) string {
	if old, ok := g.imports[p.Name()]; ok && old != p.Path() && g.err == nil {
		g.err = fmt.Errorf("recgen: packages %s and %s share the name %s", old, p.Path(), p.Name())
	}
	g.imports[p.Name()] = p.Path()
	return p.Name()
}

func (g *gen) typ(t types.Type) string { return types.TypeString(t, g.qualify) }

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(&g.body, format, args...) }

// iface looks up the named interface name of pkg.
func iface(pkg *types.Package, name string) (*types.TypeName, *types.Interface, error) {
	obj, ok := pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return nil, nil, fmt.Errorf("recgen: %s.%s is not a type", pkg.Path(), name)
	}
	it, ok := obj.Type().Underlying().(*types.Interface)
	if !ok {
		return nil, nil, fmt.Errorf("recgen: %s.%s is not an interface", pkg.Path(), name)
	}
	return obj, it, nil
}

// wrapperName is the recording type of pkg.name: recAuthTx, recBlobRefTx.
func wrapperName(pkg *types.Package, name string) string {
	return "rec" + strings.ToUpper(pkg.Name()[:1]) + pkg.Name()[1:] + name
}

func (g *gen) store(pkg *types.Package, s Store) error {
	storeObj, storeIface, err := iface(pkg, s.Store)
	if err != nil {
		return err
	}
	txObj, txIface, err := iface(pkg, s.Tx)
	if err != nil {
		return err
	}
	txName := pkg.Name() + "." + s.Tx
	if !s.Optional {
		g.required = append(g.required, txName)
	}

	// The Tx wrapper: every method records and delegates.
	txW := wrapperName(pkg, s.Tx)
	g.printf("// %s records the calls of its %s.\ntype %s struct {\n\ttx  %s\n\trec *recorder\n}\n\n", txW, txName, txW, g.typ(txObj.Type()))
	g.printf("var _ %s = %s{}\n\n", g.typ(txObj.Type()), txW)
	g.methods(txW, "tx", txName, txIface, true, nil)
	if err := g.constructor(pkg, txW, txObj, s.TxOptional, s.Optional); err != nil {
		return err
	}

	// The Store wrapper: its transactions are wrapped; it records nothing.
	storeW := wrapperName(pkg, s.Store)
	storeName := pkg.Name() + "." + s.Store
	g.printf("// %s wraps the transactions of its %s in %s.\ntype %s struct {\n\ts   %s\n\trec *recorder\n}\n\n",
		storeW, storeName, txW, storeW, g.typ(storeObj.Type()))
	g.printf("var _ %s = %s{}\n\n", g.typ(storeObj.Type()), storeW)
	g.methods(storeW, "s", storeName, storeIface, false, func(t types.Type) (string, bool) {
		if types.Identical(t, txObj.Type()) {
			return "record" + txW[len("rec"):], true
		}
		return "", false
	})
	return g.constructor(pkg, storeW, storeObj, s.StoreOptional, false)
}

// constructor writes recordX(v, rec), which returns v recording its calls
// in rec, keeping the optional interface v has (at most one: each
// combination would need a type of its own). A covered optional interface
// is noted in rec, so that the Coverage subtest checks it.
func (g *gen) constructor(pkg *types.Package, w string, obj *types.TypeName, optional []string, seen bool) error {
	t := g.typ(obj.Type())
	name := pkg.Name() + "." + obj.Name()
	fn := "record" + w[len("rec"):]
	g.printf("// %s returns v with its calls recorded in rec", fn)
	if len(optional) > 0 {
		g.printf(",\n// keeping the optional interface v has")
	}
	g.printf(".\nfunc %s(v %s, rec *recorder) %s {\n", fn, t, t)
	if seen {
		g.printf("\trec.saw(%q, reflect.TypeFor[%s]())\n", name, t)
	}
	if len(optional) == 0 {
		g.printf("\treturn %s{v, rec}\n}\n\n", w)
		return nil
	}
	g.printf("\tw := %s{v, rec}\n", w)
	var after bytes.Buffer
	for _, o := range optional {
		oObj, oIface, err := iface(pkg, o)
		if err != nil {
			return err
		}
		ot, oName, ow := g.typ(oObj.Type()), pkg.Name()+"."+o, w+o
		g.printf("\tif o, ok := v.(%s); ok {\n\t\trec.saw(%q, reflect.TypeFor[%s]())\n\t\treturn %s{w, o}\n\t}\n", ot, oName, ot, ow)
		body := g.body
		g.body = bytes.Buffer{}
		g.printf("// %s is a %s whose value is also a %s.\ntype %s struct {\n\t%s\n\to %s\n}\n\n", ow, w, oName, ow, w, ot)
		g.methods(ow, "o", oName, oIface, true, nil)
		after.Write(g.body.Bytes())
		g.body = body
	}
	if len(optional) > 1 {
		return fmt.Errorf("recgen: %s: more than one optional interface", name)
	}
	g.printf("\treturn w\n}\n\n")
	g.body.Write(after.Bytes())
	return nil
}

// methods writes the methods of it on the wrapper type w, delegating to
// field; record makes each record "name.Method". wrap, when not nil, names
// the constructor to apply to the argument of a func(T) parameter.
func (g *gen) methods(w, field, name string, it *types.Interface, record bool, wrap func(types.Type) (string, bool)) {
	var ms []*types.Func
	for i := range it.NumMethods() {
		ms = append(ms, it.Method(i))
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name() < ms[j].Name() })
	recv := "x"
	if !record {
		recv = "r"
	}
	for _, m := range ms {
		sig := m.Type().(*types.Signature)
		params, args := g.params(sig, recv)
		g.printf("func (%s %s) %s(%s)%s {\n", recv, w, m.Name(), strings.Join(params, ", "), g.results(sig.Results()))
		if record {
			g.printf("\t%s.rec.hit(%q)\n", recv, name+"."+m.Name())
		}
		for i := range sig.Params().Len() {
			if wrap == nil {
				break
			}
			fsig, ok := sig.Params().At(i).Type().(*types.Signature)
			if !ok || fsig.Params().Len() != 1 {
				continue
			}
			ctor, ok := wrap(fsig.Params().At(0).Type())
			if !ok {
				continue
			}
			ret := "return "
			if fsig.Results().Len() == 0 {
				ret = ""
			}
			args[i] = fmt.Sprintf("func(v %s)%s { %s%s(%s(v, %s.rec)) }",
				g.typ(fsig.Params().At(0).Type()), g.results(fsig.Results()), ret, args[i], ctor, recv)
		}
		call := fmt.Sprintf("%s.%s.%s(%s)", recv, field, m.Name(), strings.Join(args, ", "))
		if sig.Results().Len() > 0 {
			call = "return " + call
		}
		g.printf("\t%s\n}\n\n", call)
	}
}

// params returns the parameter list of sig and the arguments passing them
// on, naming unnamed parameters and renaming one that shadows recv.
func (g *gen) params(sig *types.Signature, recv string) (params, args []string) {
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		n := p.Name()
		if n == "" || n == "_" || n == recv {
			n = fmt.Sprintf("a%d", i+1)
		}
		t := g.typ(p.Type())
		arg := n
		if sig.Variadic() && i == sig.Params().Len()-1 {
			t = "..." + g.typ(p.Type().(*types.Slice).Elem())
			arg += "..."
		}
		params = append(params, n+" "+t)
		args = append(args, arg)
	}
	return params, args
}

func (g *gen) results(r *types.Tuple) string {
	switch r.Len() {
	case 0:
		return ""
	case 1:
		return " " + g.typ(r.At(0).Type())
	}
	var out []string
	for i := range r.Len() {
		out = append(out, g.typ(r.At(i).Type()))
	}
	return " (" + strings.Join(out, ", ") + ")"
}

func (g *gen) file() ([]byte, error) {
	if g.err != nil {
		return nil, g.err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by storage/storetest/internal/recgen; DO NOT EDIT.\n\n")
	var std, others []string
	for _, p := range g.imports {
		if p == "context" && !bytes.Contains(g.body.Bytes(), []byte("context.")) {
			continue
		}
		if strings.Contains(p, ".") {
			others = append(others, fmt.Sprintf("\t%q\n", p))
		} else {
			std = append(std, fmt.Sprintf("\t%q\n", p))
		}
	}
	sort.Strings(std)
	sort.Strings(others)
	b.WriteString("package storetest\n\nimport (\n" + strings.Join(std, "") + "\n" + strings.Join(others, "") + ")\n\n")
	b.WriteString("// requiredInterfaces are the transactions whose every method the suite\n")
	b.WriteString("// must call on every backend; the optional interfaces a backend has are\n")
	b.WriteString("// added when the wrappers meet them (recorder.saw).\n")
	b.WriteString("var requiredInterfaces = map[string]reflect.Type{\n")
	for _, n := range g.required {
		fmt.Fprintf(&b, "\t%q: reflect.TypeFor[%s](),\n", n, n)
	}
	b.WriteString("}\n\n")
	b.Write(g.body.Bytes())
	out := b.Bytes()
	src, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("recgen: formatting: %v\n%s", err, out)
	}
	return src, nil
}
