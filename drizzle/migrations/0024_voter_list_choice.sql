-- "Mostrar mi nombre en las listas de votantes": shown by default (what voters lists did until now).
ALTER TABLE "profiles" ADD COLUMN "show_in_voter_lists" boolean DEFAULT true NOT NULL;