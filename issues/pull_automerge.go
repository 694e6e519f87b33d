package issues
