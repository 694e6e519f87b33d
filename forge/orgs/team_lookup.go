package orgs
