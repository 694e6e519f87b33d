package forge_test

import (
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

const module = "github.com/hearthforge/hearth/"

// domainPatterns are the packages whose services are the published API;
// boundaryExcluded are left out: test helpers and the composition root
// (which is checked to give no Ports out instead).
var (
	domainPatterns   = []string{module + "forge/...", module + "auth/...", module + "quota/...", module + "issues/...", module + "mirror/..."}
	boundaryExcluded = []string{module + "forge/forgetest", module + "forge/site"}
)

// hostOperations reads the list of host operations from the kernel's
// package documentation (doc.go, "The published API is the boundary"):
// the one place they are stated, each with why.
func hostOperations(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	item := regexp.MustCompile(`^  - (\w+\.\w+\.\w+): (.+)$`)
	out := map[string]string{}
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		if m := item.FindStringSubmatch(line); m != nil {
			out[m[1]] = m[2]
		}
	}
	if len(out) == 0 {
		t.Fatal("doc.go lists no host operation: the list's format changed")
	}
	return out
}

// TestPublishedMethodsTakeAnActor is the boundary of the published API:
// every exported method of every domain service takes the acting
// forge.Actor (and checks it: the services' own access tests), is a host
// operation listed in doc.go, or is on a Ports value. A service is an
// exported struct type of a domain package that hides a store: an
// unexported field through which a domain's Store interface is reached,
// directly, through struct fields (its Config) or through pointers to
// other services (a Dispatcher or a Scheduler holds its Service). A Ports
// (the service seen through its trusted methods) is exempt: only
// NewWithPorts may make one, and forge/site gives none out.
func TestPublishedMethodsTakeAnActor(t *testing.T) {
	t.Parallel()
	hosts := hostOperations(t)
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes},
		append(domainPatterns, module+"forge/site")...)
	if err != nil {
		t.Fatal(err)
	}
	var (
		domain []*types.Package
		site   *types.Package
		actor  types.Type
	)
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("%s: %v", p.PkgPath, e)
		}
		switch {
		case p.PkgPath == module+"forge/site":
			site = p.Types
		case !slices.Contains(boundaryExcluded, p.PkgPath):
			domain = append(domain, p.Types)
		}
		if p.PkgPath == module+"forge" {
			actor = p.Types.Scope().Lookup("Actor").Type()
		}
	}
	if actor == nil || site == nil {
		t.Fatal("forge.Actor or forge/site not loaded")
	}
	isDomain := func(p *types.Package) bool {
		return p != nil && slices.ContainsFunc(domain, func(d *types.Package) bool { return d == p })
	}
	services := servicesOf(domain, isDomain)

	seen := map[string]bool{}
	for _, p := range domain {
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			if (name == "Service" || name == "Dispatcher" || name == "Scheduler") && !services[named] {
				t.Errorf("%s.%s hides no store: the rule that finds services missed it", p.Path(), name)
			}
			if !services[named] || name == "Ports" {
				continue
			}
			carrier := carriesActor(p, named, actor) || madeFromStore(p, named)
			ms := types.NewMethodSet(types.NewPointer(named))
			for i := range ms.Len() {
				f := ms.At(i).Obj().(*types.Func)
				if !f.Exported() {
					continue
				}
				key := p.Name() + "." + name + "." + f.Name()
				seen[key] = true
				takes := carrier || takesActor(f.Type().(*types.Signature), actor)
				_, host := hosts[key]
				switch {
				case takes && host:
					t.Errorf("%s takes an actor: it is no host operation (remove it from doc.go's list)", key)
				case !takes && !host:
					t.Errorf("%s takes no forge.Actor: check the actor, move it to the package's Ports "+
						"(NewWithPorts, for forge/site), or list it in forge/doc.go's host operations with why", key)
				}
			}
		}
		checkPorts(t, p)
	}
	for key := range hosts {
		if !seen[key] {
			t.Errorf("doc.go lists %s, which is no exported service method", key)
		}
	}
	checkSiteGivesNoPorts(t, site, isDomain)
}

// servicesOf returns the exported struct types of pkgs that hide a store:
// an unexported field through which a domain's Store interface is
// reached, by struct fields and pointers to the domains' named types (a
// Config, whose Store is the caller's own, is data).
func servicesOf(pkgs []*types.Package, isDomain func(*types.Package) bool) map[*types.Named]bool {
	memo := map[*types.Named]bool{}
	var holds func(t types.Type, visiting map[*types.Named]bool) bool
	holds = func(t types.Type, visiting map[*types.Named]bool) bool {
		switch t := t.(type) {
		case *types.Pointer:
			return holds(t.Elem(), visiting)
		case *types.Named:
			obj := t.Obj()
			if !isDomain(obj.Pkg()) {
				return false
			}
			if _, ok := t.Underlying().(*types.Interface); ok {
				return obj.Name() == "Store"
			}
			if v, ok := memo[t]; ok {
				return v
			}
			if visiting[t] {
				return false
			}
			visiting[t] = true
			v := holds(t.Underlying(), visiting)
			delete(visiting, t)
			memo[t] = v
			return v
		case *types.Struct:
			for f := range t.Fields() {
				if holds(f.Type(), visiting) {
					return true
				}
			}
		}
		return false
	}
	out := map[*types.Named]bool{}
	for _, p := range pkgs {
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() {
				continue
			}
			if named, ok := tn.Type().(*types.Named); ok {
				st, isStruct := named.Underlying().(*types.Struct)
				if !isStruct {
					continue
				}
				for f := range st.Fields() {
					if !f.Exported() && holds(f.Type(), map[*types.Named]bool{}) {
						out[named] = true
					}
				}
			}
		}
	}
	return out
}

// takesActor reports whether sig has a forge.Actor (or *forge.Actor)
// parameter.
func takesActor(sig *types.Signature, actor types.Type) bool {
	for v := range sig.Params().Variables() {
		t := v.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if types.Identical(t, actor) {
			return true
		}
	}
	return false
}

// checkPorts: a package's Ports has no exported field, and no exported
// function or method of the package but NewWithPorts returns one.
// carriesActor reports whether named is an actor-carrying value, such as
// repos.Resolved: a resolution of one actor's access that its methods act
// with, re-checking each operation's scope and rules. Such a value counts
// as taking the actor when all its fields are unexported, one of them is a
// forge.Actor, and every exported function or method of its package that
// returns one takes a forge.Actor itself: only a checked call makes one.
func carriesActor(p *types.Package, named *types.Named, actor types.Type) bool {
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	hasActor := false
	for f := range st.Fields() {
		if f.Exported() {
			return false
		}
		hasActor = hasActor || types.Identical(f.Type(), actor)
	}
	return hasActor && madeOnlyBy(p, named, func(sig *types.Signature) bool { return takesActor(sig, actor) })
}

// madeOnlyBy reports whether some exported function or method of p
// returns named and every one that does passes maker.
func madeOnlyBy(p *types.Package, named *types.Named, maker func(*types.Signature) bool) bool {
	makers := 0
	for _, f := range exportedFuncs(p) {
		sig := f.Type().(*types.Signature)
		if !mentions(sig.Results(), named) {
			continue
		}
		if !maker(sig) {
			return false
		}
		makers++
	}
	return makers > 0
}

// madeFromStore reports whether named is a store reader, such as
// issues.RepoCounter: a trusted read that only a holder of the domain's
// Store can make (every exported function or method of its package that
// returns one takes the package's Store), for the composition root to hand
// to another domain. Whoever holds the store reads it anyway, so such a
// value gives nothing away.
func madeFromStore(p *types.Package, named *types.Named) bool {
	obj, ok := p.Scope().Lookup("Store").(*types.TypeName)
	if !ok {
		return false
	}
	return madeOnlyBy(p, named, func(sig *types.Signature) bool {
		for v := range sig.Params().Variables() {
			if types.Identical(v.Type(), obj.Type()) {
				return true
			}
		}
		return false
	})
}

// exportedFuncs are the exported functions of p and the exported methods
// of its exported named types.
func exportedFuncs(p *types.Package) []*types.Func {
	var funcs []*types.Func
	for _, name := range p.Scope().Names() {
		switch o := p.Scope().Lookup(name).(type) {
		case *types.Func:
			if o.Exported() {
				funcs = append(funcs, o)
			}
		case *types.TypeName:
			if named, ok := o.Type().(*types.Named); ok && o.Exported() {
				for m := range named.Methods() {
					if m.Exported() {
						funcs = append(funcs, m)
					}
				}
			}
		}
	}
	return funcs
}

func checkPorts(t *testing.T, p *types.Package) {
	t.Helper()
	obj, ok := p.Scope().Lookup("Ports").(*types.TypeName)
	if !ok {
		return
	}
	ports := obj.Type()
	if st, ok := ports.Underlying().(*types.Struct); ok {
		for f := range st.Fields() {
			if f.Exported() {
				t.Errorf("%s.Ports has an exported field %s", p.Name(), f.Name())
			}
		}
	}
	for _, f := range exportedFuncs(p) {
		if f.Name() == "NewWithPorts" && f.Type().(*types.Signature).Recv() == nil {
			continue
		}
		for v := range f.Type().(*types.Signature).Results().Variables() {
			if mentions(v.Type(), ports) {
				t.Errorf("%s returns a Ports: only NewWithPorts makes one", f.FullName())
			}
		}
	}
}

// checkSiteGivesNoPorts: no exported function, method or field of
// forge/site has a type that mentions a domain's Ports: the composition
// root keeps the trusted ports to itself.
func checkSiteGivesNoPorts(t *testing.T, site *types.Package, isDomain func(*types.Package) bool) {
	t.Helper()
	isPorts := func(typ types.Type) bool {
		found := false
		walkTypes(typ, map[types.Type]bool{}, func(n *types.Named) {
			if n.Obj().Name() == "Ports" && isDomain(n.Obj().Pkg()) {
				found = true
			}
		})
		return found
	}
	for _, name := range site.Scope().Names() {
		o := site.Scope().Lookup(name)
		if !o.Exported() {
			continue
		}
		var exposed []types.Type
		switch o := o.(type) {
		case *types.Func, *types.Var, *types.Const:
			exposed = append(exposed, o.Type())
		case *types.TypeName:
			named, ok := o.Type().(*types.Named)
			if !ok {
				continue
			}
			for m := range named.Methods() {
				if m.Exported() {
					exposed = append(exposed, m.Type())
				}
			}
			if st, ok := named.Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					if f.Exported() {
						exposed = append(exposed, f.Type())
					}
				}
			}
		}
		for _, typ := range exposed {
			if sig, ok := typ.(*types.Signature); ok {
				typ = sig.Results() // a Ports taken as an argument is the caller's own
			}
			if isPorts(typ) {
				t.Errorf("forge/site exposes a Ports through %s: the composition root gives none out", name)
			}
		}
	}
}

// mentions reports whether typ is or contains target (pointers, slices,
// maps, signatures, struct fields).
func mentions(typ, target types.Type) bool {
	found := false
	walkTypes(typ, map[types.Type]bool{}, func(n *types.Named) {
		if types.Identical(n, target) {
			found = true
		}
	})
	return found
}

// walkTypes calls fn on each named type typ is built of, without entering
// named types' underlying types (a Ports inside a service is its own).
func walkTypes(typ types.Type, seen map[types.Type]bool, fn func(*types.Named)) {
	if seen[typ] {
		return
	}
	seen[typ] = true
	switch t := typ.(type) {
	case *types.Named:
		fn(t)
	case *types.Pointer:
		walkTypes(t.Elem(), seen, fn)
	case *types.Slice:
		walkTypes(t.Elem(), seen, fn)
	case *types.Array:
		walkTypes(t.Elem(), seen, fn)
	case *types.Map:
		walkTypes(t.Key(), seen, fn)
		walkTypes(t.Elem(), seen, fn)
	case *types.Chan:
		walkTypes(t.Elem(), seen, fn)
	case *types.Signature:
		for v := range t.Params().Variables() {
			walkTypes(v.Type(), seen, fn)
		}
		for v := range t.Results().Variables() {
			walkTypes(v.Type(), seen, fn)
		}
	case *types.Tuple:
		for v := range t.Variables() {
			walkTypes(v.Type(), seen, fn)
		}
	case *types.Struct:
		for f := range t.Fields() {
			walkTypes(f.Type(), seen, fn)
		}
	}
}
