package main

import (
	"io"
	"net/netip"
	"reflect"
	"testing"
)

func TestParseTrustedProxies(t *testing.T) {
	t.Parallel()
	got, err := parseTrustedProxies(" 10.0.0.0/8, 127.0.0.1,fd00::1/8 ,::1,")
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32"),
		netip.MustParsePrefix("fd00::/8"), netip.MustParsePrefix("::1/128")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, err := parseTrustedProxies(""); err != nil || got != nil {
		t.Errorf("empty: %v, %v", got, err)
	}
	if _, err := parseTrustedProxies("10.0.0.0/33"); err == nil {
		t.Error("a bad network is refused")
	}
	if _, err := parseFlags([]string{"-trusted-proxies", "nonsense"}, func(string) string { return "" }, io.Discard); err == nil {
		t.Error("the flag refuses a bad value")
	}
	o, err := parseFlags([]string{"-trusted-proxies", "10.0.0.0/8"}, func(string) string { return "" }, io.Discard)
	if err != nil || len(o.trustedProxies) != 1 {
		t.Errorf("flag: %v, %v", o.trustedProxies, err)
	}
}
