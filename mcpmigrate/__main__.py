from mcpmigrate.cli import main

main()
